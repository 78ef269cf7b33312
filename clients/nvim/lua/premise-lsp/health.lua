-- :checkhealth premise-lsp — is the server installed, which version, does it
-- start, what state is the index (or the automatic index's cache) in, is the
-- prover there. Works on Neovim 0.7.2 (require('health').report_*) and later
-- (vim.health.start/ok/warn/error/info).
local M = {}

local h = vim.health or {}
if not h.start and not h.report_start then
  h = require('health')
end
local start = h.start or h.report_start
local ok = h.ok or h.report_ok
local warn = h.warn or h.report_warn
local err = h.error or h.report_error
local info = h.info or h.report_info

--- The premise-lsp program part of the configured command (before `serve`).
local function base_command(pl)
  local cmd = pl.command(nil, false, pl.config.cmd)
  local base = {}
  for _, w in ipairs(cmd) do
    if w == 'serve' then
      break
    end
    table.insert(base, w)
  end
  return base
end

--- Run `argv`: exit code and output (stdout, then stderr), at most `timeout_ms`
--- (a command that hangs gives -1 and says so, instead of hanging :checkhealth).
local function run(argv, timeout_ms)
  timeout_ms = timeout_ms or 60000
  local out, errs, code = {}, {}, nil
  local ok_start, job = pcall(vim.fn.jobstart, argv, {
    stdout_buffered = true,
    stderr_buffered = true,
    on_stdout = function(_, data)
      out = data
    end,
    on_stderr = function(_, data)
      errs = data
    end,
    on_exit = function(_, c)
      code = c
    end,
  })
  if not ok_start or job <= 0 then
    return -1, 'could not run ' .. table.concat(argv, ' ')
  end
  pcall(vim.fn.chanclose, job, 'stdin')
  local done = vim.wait(timeout_ms, function()
    return code ~= nil
  end, 50)
  if not done then
    pcall(vim.fn.jobstop, job)
    return -1, string.format('%s did not finish within %d s', table.concat(argv, ' '), timeout_ms / 1000)
  end
  vim.wait(1000, function()
    return out ~= nil and errs ~= nil
  end, 10)
  return code, vim.trim(table.concat(out or {}, '\n') .. '\n' .. table.concat(errs or {}, '\n'))
end

local function first_line(s)
  return (s:match('[^\n]*') or '')
end

--- Start `base serve --stdio` (standalone, no automatic index), send
--- initialize, wait for its answer, then shutdown/exit. nil, serverInfo on
--- success; an error message otherwise.
local function try_server(base, timeout_ms)
  local argv = vim.list_extend(vim.deepcopy(base), { 'serve', '--stdio' })
  local buf, stderr, reply = '', {}, nil
  local job = vim.fn.jobstart(argv, {
    on_stdout = function(_, data)
      buf = buf .. table.concat(data, '\n')
      local len, rest = buf:match('Content%-Length: (%d+)\r\n\r\n(.*)')
      if len and #rest >= tonumber(len) then
        local okj, msg = pcall(vim.json.decode, rest:sub(1, tonumber(len)))
        if okj and type(msg) == 'table' and msg.id == 1 then
          reply = msg
        end
      end
    end,
    on_stderr = function(_, data)
      vim.list_extend(stderr, data)
    end,
  })
  if job <= 0 then
    return 'could not start ' .. table.concat(argv, ' ')
  end
  local function send(msg)
    local body = vim.json.encode(msg)
    vim.fn.chansend(job, 'Content-Length: ' .. #body .. '\r\n\r\n' .. body)
  end
  send({
    jsonrpc = '2.0',
    id = 1,
    method = 'initialize',
    params = { processId = vim.NIL, rootUri = vim.NIL, capabilities = vim.empty_dict(), initializationOptions = { ['premise-lsp'] = { autoIndex = false } } },
  })
  vim.wait(timeout_ms, function()
    return reply ~= nil or vim.fn.jobwait({ job }, 0)[1] ~= -1
  end, 50)
  if reply then
    send({ jsonrpc = '2.0', id = 2, method = 'shutdown' })
    send({ jsonrpc = '2.0', method = 'exit' })
    vim.wait(2000, function()
      return vim.fn.jobwait({ job }, 0)[1] ~= -1
    end, 50)
  end
  pcall(vim.fn.jobstop, job)
  if not reply then
    local why = vim.trim(table.concat(stderr, '\n'))
    return string.format('%s did not answer initialize within %d s%s', table.concat(argv, ' '), timeout_ms / 1000, why ~= '' and (': ' .. why) or '')
  end
  if reply.error then
    return 'initialize failed: ' .. tostring(reply.error.message)
  end
  return nil, (reply.result and reply.result.serverInfo) or {}
end

--- The buffer the user ran :checkhealth from: :checkhealth shows its report in a
--- new buffer of its own before the checks run, so that one is the alternate buffer.
local function user_buffer()
  local cur = vim.api.nvim_get_current_buf()
  if vim.api.nvim_buf_get_name(cur) ~= '' and vim.api.nvim_buf_get_option(cur, 'buftype') == '' then
    return cur
  end
  local alt = vim.fn.bufnr('#')
  if alt > 0 and vim.api.nvim_buf_is_valid(alt) then
    return alt
  end
  return cur
end

function M.check()
  local pl = require('premise-lsp')
  start('premise-lsp: server')
  if type(pl.config.cmd) == 'function' then
    info('`cmd` is a function: it is not checked here')
    return
  end
  local exe = pl.missing_program()
  if exe then
    err(string.format("'%s' is not installed or not on PATH", exe), {
      'npm install -g premise-lsp-<version>.tgz (or, in a checkout: npm ci && npm link)',
      "or set `cmd` in setup(), e.g. { 'node', '/path/to/premise-lsp/dist/cli.js', 'serve', '--stdio' }",
    })
    return
  end
  local base = base_command(pl)
  ok('command: ' .. table.concat(pl.command(nil, false, pl.config.cmd), ' ') .. ' (' .. vim.fn.exepath(base[1]) .. ')')

  local code, out = run(vim.list_extend(vim.deepcopy(base), { '--version' }))
  if code == 0 then
    ok('version: ' .. first_line(out))
  else
    warn('`' .. table.concat(base, ' ') .. ' --version` failed (a premise-lsp older than --version?): ' .. first_line(out))
  end

  local e, server = try_server(base, 15000)
  if e then
    err('the server does not start: ' .. e)
  else
    ok(string.format('the server starts and answers initialize (%s %s)', server.name or '?', server.version or ''))
  end

  start('premise-lsp: index')
  local root = pl.find_root(user_buffer())
  local index = pl.settings().index
  if index then
    if vim.fn.filereadable(index .. '/manifest.json') == 1 then
      ok('index (setting `index`): ' .. index)
    else
      err('index (setting `index`) ' .. index .. ' has no manifest.json: it does not exist or is not an index', {
        'build it: premise-lsp index <sources> --out ' .. index,
        'or drop the `index` setting: the server then indexes the project by itself (automatic index)',
      })
    end
  else
    info('no `index` setting: the server indexes the project by itself (automatic index, cached)')
  end
  code, out = run(vim.list_extend(vim.deepcopy(base), { 'doctor', root }))
  if code ~= 0 and out:match('unknown command "doctor"') then
    warn('this premise-lsp has no `doctor` command (update it to see the index and cache state)')
  else
    info('premise-lsp doctor ' .. root .. (code == 0 and '' or (' (exit ' .. code .. ')')) .. ':')
    -- its lines: "✓ check", or "✗ check" followed by indented "fix: …" lines
    local lines = vim.split(out, '\n', { trimempty = true })
    local i = 1
    while i <= #lines do
      local line = lines[i]
      if vim.startswith(line, '✓ ') then
        ok(line:sub(#'✓ ' + 1))
      elseif vim.startswith(line, '✗ ') then
        local advice = {}
        while lines[i + 1] and lines[i + 1]:match('^%s') do
          i = i + 1
          table.insert(advice, vim.trim(lines[i]))
        end
        err(line:sub(#'✗ ' + 1), advice)
      else
        info(line)
      end
      i = i + 1
    end
  end

  start('premise-lsp: prover')
  local upstream = pl.config.upstream
  local provers = { lean = { 'lake', 'lean' }, isabelle = { 'isabelle' } }
  for _, kind in ipairs({ 'lean', 'isabelle' }) do
    local found
    for _, p in ipairs(provers[kind]) do
      if vim.fn.executable(p) == 1 then
        found = found or (p .. ' (' .. vim.fn.exepath(p) .. ')')
      end
    end
    if found then
      ok(kind .. ': ' .. found)
    elseif upstream == kind then
      err(kind .. ': ' .. table.concat(provers[kind], ' or ') .. ' is not on PATH, and setup() has upstream = ' .. "'" .. kind .. "'", {
        kind == 'lean' and 'install elan (https://github.com/leanprover/elan)' or 'put the isabelle command on PATH',
      })
    else
      info(kind .. ': ' .. table.concat(provers[kind], ' or ') .. ' not on PATH' .. (upstream and '' or ' (standalone setup: not needed)'))
    end
  end
end

return M
