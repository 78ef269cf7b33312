-- premise-lsp for Neovim (0.7.2 and later; on Neovim >= 0.11 through
-- vim.lsp.config/vim.lsp.enable, before that vim.lsp.start_client).
--
--   require('premise-lsp').setup({
--     cmd = { 'premise-lsp', 'serve', '--stdio' },   -- server command (upstream flags are added)
--     upstream = 'lean',                              -- 'lean' | 'isabelle' | nil (standalone)
--     index = '/path/to/index',                       -- sent as settings.index
--     filetypes = { 'lean', 'isabelle' },
--     settings = { k = 20, mode = 'hybrid' },         -- the `premise-lsp` settings section
--   })
--
-- Commands: :PremiseSearch [text] (results → vim.ui.select, inserts the name;
-- :PremiseSearch! fills the quickfix list instead), :PremiseInsert (premise-lsp's
-- "Insert premise" code actions at the cursor), :PremisePick [text] (the live
-- picker: premise-lsp/picker.lua), :PremiseTry (the top premises tried by Lean at
-- the cursor's step; choose among the steps that close the goal or make progress).
local M = {}

-- client name (what M.client() looks for) and the settings section / action tag
M.name = 'premise-lsp'
M.section = 'premise-lsp'
M.search_command = 'premise-lsp.search'
M.try_command = 'premise-lsp.try'
M.insert_title = '^Insert premise'

local defaults = {
  cmd = { 'premise-lsp', 'serve', '--stdio' },
  upstream = nil,
  index = nil,
  filetypes = { 'lean', 'isabelle' },
  settings = {},
  root_markers = { 'lakefile.lean', 'lakefile.toml', 'lean-toolchain', 'ROOT', 'ROOTS', '.git' },
  on_attach = nil,
  capabilities = nil,
  autostart = true,
  -- omnifunc: set omnifunc=v:lua.vim.lsp.omnifunc in attached buffers that have none;
  -- builtin: vim.lsp.completion.enable() where it exists (Neovim >= 0.11), with autotrigger.
  -- Set `completion = false` when nvim-cmp (cmp-nvim-lsp) or another plugin completes.
  completion = { omnifunc = true, builtin = true, autotrigger = true },
  -- normal-mode key mapped to vim.lsp.buf.hover in attached buffers on Neovim < 0.10
  -- (0.10 maps K itself), unless the buffer already has a mapping for it; false: none
  hover_key = 'K',
}

M.config = vim.deepcopy(defaults)

-- root_dir → client id (Neovim 0.7 has no vim.lsp.start to reuse clients for us)
local clients_by_root = {}

local function notify(msg, level)
  vim.notify('premise-lsp: ' .. msg, level or vim.log.levels.INFO)
end

-- The nearest directory at or above `dir` holding one of `markers`, or nil.
local function find_upward(dir, markers)
  local cur = dir
  while #markers > 0 and cur and cur ~= '' do
    for _, marker in ipairs(markers) do
      if vim.loop.fs_stat(cur .. '/' .. marker) then
        return cur
      end
    end
    local parent = vim.fn.fnamemodify(cur, ':h')
    if parent == cur then
      break
    end
    cur = parent
  end
  return nil
end

-- Version-control markers: a root only where no project marker is found at any level.
local VCS_MARKERS = { ['.git'] = true, ['.hg'] = true, ['.jj'] = true }

--- The project root of a buffer: the nearest directory with a project marker
--- (lakefile.lean, lakefile.toml, lean-toolchain, ROOT, ROOTS), searched upward
--- first, so that a `.git` inside the project (a submodule, a subfolder under
--- its own version control) does not win over the lakefile above it; then the
--- nearest `.git`; else the file's directory. The server looks upward the same
--- way for the Lake project or Isabelle session it indexes.
function M.find_root(bufnr)
  local path = vim.api.nvim_buf_get_name(bufnr)
  local dir = path ~= '' and vim.fn.fnamemodify(path, ':p:h') or vim.fn.getcwd()
  local project, vcs = {}, {}
  for _, marker in ipairs(M.config.root_markers) do
    table.insert(VCS_MARKERS[marker] and vcs or project, marker)
  end
  return find_upward(dir, project) or find_upward(dir, vcs) or dir
end

--- The server command line for a project root. `upstream` and `base` default
--- to the configured `upstream` and `cmd`.
function M.command(root, upstream, base)
  local cmd = vim.deepcopy(base or M.config.cmd)
  if type(cmd) == 'string' then
    cmd = vim.split(cmd, '%s+', { trimempty = true })
  end
  if upstream == nil then
    upstream = M.config.upstream
  end
  if upstream == 'lean' then
    vim.list_extend(cmd, { '--lean', root })
  elseif upstream == 'isabelle' then
    vim.list_extend(cmd, { '--isabelle' })
  elseif upstream ~= nil and upstream ~= false then
    error("premise-lsp: upstream must be 'lean', 'isabelle' or nil, got " .. tostring(upstream))
  end
  return cmd
end

--- A `cmd` function for vim.lsp.config (Neovim >= 0.11): premise-lsp with
--- `--lean ROOT` (ROOT: the client's root_dir), started in ROOT, as lean.nvim's
--- own `leanls` config starts `lake serve`. For lean.nvim:
---   vim.lsp.config('leanls', { cmd = require('premise-lsp').lean_cmd() })
--- `base`: the premise-lsp command (default: the configured `cmd`).
function M.lean_cmd(base)
  return function(dispatchers, config)
    local root = (config and config.root_dir) or vim.fn.getcwd()
    return vim.lsp.rpc.start(M.command(root, 'lean', base), dispatchers, { cwd = root, env = config and config.cmd_env })
  end
end

--- The `premise-lsp` settings section sent to the server.
function M.settings()
  local s = vim.deepcopy(M.config.settings or {})
  if M.config.index and s.index == nil then
    s.index = M.config.index
  end
  if next(s) == nil then
    return vim.empty_dict() -- JSON {}, not [] (the server wants an object)
  end
  return s
end

-- programs already reported as missing (one message per program, not one per buffer)
local reported_missing = {}

--- The server program when it cannot be run (not installed, not on PATH), else nil.
function M.missing_program(cmd)
  cmd = cmd or M.config.cmd
  if type(cmd) ~= 'table' and type(cmd) ~= 'string' then
    return nil -- a function: the user starts it
  end
  local exe = M.command(nil, false, cmd)[1]
  if exe and vim.fn.executable(exe) == 1 then
    return nil
  end
  return exe or ''
end

local function report_missing(exe)
  if not reported_missing[exe] then
    reported_missing[exe] = true
    notify(string.format("'%s' is not installed or not on PATH: put premise-lsp on PATH or set `cmd` in setup(), e.g. { 'node', '/path/to/premise-lsp/dist/cli.js', 'serve', '--stdio' }", exe), vim.log.levels.ERROR)
  end
end

local function buffer_clients(bufnr)
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ bufnr = bufnr })
  end
  return vim.tbl_values(vim.lsp.buf_get_clients(bufnr))
end

--- Does `client` run premise-lsp (it offers the `premise-lsp.search` command)?
--- True for our own client and for another plugin's client whose command is
--- premise-lsp (lean.nvim's `leanls` with premise-lsp in front of Lean).
function M.is_premise_client(client)
  if client.name == M.name then
    return true
  end
  local caps = client.server_capabilities or {}
  local commands = caps.executeCommandProvider and caps.executeCommandProvider.commands or {}
  return vim.tbl_contains(commands, M.search_command)
end

--- The premise-lsp client attached to `bufnr` (or nil): ours first, else any
--- client whose server is premise-lsp.
function M.client(bufnr)
  local list = buffer_clients(bufnr or vim.api.nvim_get_current_buf())
  for _, c in ipairs(list) do
    if c.name == M.name then
      return c
    end
  end
  for _, c in ipairs(list) do
    if M.is_premise_client(c) then
      return c
    end
  end
  return nil
end

--- Make completion reachable in `bufnr` once `client` is attached: omnifunc
--- (when the buffer has none) and, on Neovim >= 0.11, vim.lsp.completion.
function M.enable_completion(client, bufnr)
  local c = M.config.completion
  if c == false then
    return
  end
  c = c or {}
  if c.omnifunc ~= false and vim.api.nvim_buf_get_option(bufnr, 'omnifunc') == '' then
    vim.api.nvim_buf_set_option(bufnr, 'omnifunc', 'v:lua.vim.lsp.omnifunc')
  end
  if c.builtin ~= false and vim.lsp.completion and vim.lsp.completion.enable then
    vim.lsp.completion.enable(true, client.id, bufnr, { autotrigger = c.autotrigger ~= false })
  end
end

--- Map `hover_key` (K) to vim.lsp.buf.hover in `bufnr` on Neovim < 0.10, which
--- has no such default: there K runs 'keywordprg' (man). A mapping the user
--- made (buffer-local or global) is kept.
function M.enable_hover(bufnr)
  local key = M.config.hover_key
  if not key or vim.fn.has('nvim-0.10') == 1 then
    return
  end
  local mapped = vim.api.nvim_buf_call(bufnr, function()
    return vim.fn.maparg(key, 'n') ~= ''
  end)
  if not mapped then
    vim.keymap.set('n', key, vim.lsp.buf.hover, { buffer = bufnr, desc = 'premise-lsp: hover' })
  end
end

local levels = { vim.log.levels.ERROR, vim.log.levels.WARN, vim.log.levels.INFO, vim.log.levels.DEBUG }

--- window/showMessage through vim.notify (so it is in :messages, or in a
--- notification plugin's window), level from the message type.
function M.show_message(_, result, ctx)
  if type(result) ~= 'table' or type(result.message) ~= 'string' then
    return
  end
  local client = ctx and ctx.client_id and vim.lsp.get_client_by_id(ctx.client_id)
  local name = client and client.name or M.name
  local text = result.message
  if not vim.startswith(text, name .. ':') and not vim.startswith(text, M.name .. ':') then
    text = name .. ': ' .. text
  end
  vim.notify(text, levels[result.type] or vim.log.levels.INFO)
end

M.handlers = { ['window/showMessage'] = M.show_message }

local function on_attach(client, bufnr)
  M.enable_completion(client, bufnr)
  M.enable_hover(bufnr)
  if M.config.on_attach then
    M.config.on_attach(client, bufnr)
  end
end

--- Neovim >= 0.11: vim.lsp.config/vim.lsp.enable exist.
function M.has_lsp_config()
  return type(vim.lsp.config) ~= 'nil' and type(vim.lsp.enable) == 'function'
end

--- The configuration handed to vim.lsp.config(M.name, …) on Neovim >= 0.11.
function M.lsp_config()
  local settings = M.settings()
  local cfg = {
    filetypes = M.config.filetypes,
    root_dir = function(bufnr, on_dir)
      on_dir(M.find_root(bufnr))
    end,
    init_options = { [M.section] = settings },
    settings = { [M.section] = settings },
    capabilities = M.config.capabilities,
    handlers = M.handlers,
    on_attach = on_attach,
  }
  if M.config.upstream == 'lean' then
    -- the command depends on the project root (--lean ROOT): a function, as
    -- lean.nvim's own `leanls` config does; the prover runs in the root
    cfg.cmd = M.lean_cmd()
  else
    cfg.cmd = M.command(nil)
  end
  return cfg
end

local function request(client, method, params, handler, bufnr)
  if vim.fn.has('nvim-0.11') == 1 then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

--- Start (or reuse) the client for `bufnr` and attach it. Returns the client id.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if vim.api.nvim_buf_get_option(bufnr, 'buftype') ~= '' then
    return nil
  end
  local root = M.find_root(bufnr)
  local id = clients_by_root[root]
  if id and not vim.lsp.get_client_by_id(id) then
    id = nil
  end
  if not id and vim.lsp.start and M.has_lsp_config() then
    -- Neovim >= 0.11 with autostart = false: vim.lsp.start reuses a client per name and root
    local settings = M.settings()
    return vim.lsp.start({
      name = M.name,
      cmd = M.command(root),
      cmd_cwd = root,
      root_dir = root,
      capabilities = M.config.capabilities,
      init_options = { [M.section] = settings },
      settings = { [M.section] = settings },
      handlers = M.handlers,
      on_attach = on_attach,
    }, { bufnr = bufnr })
  end
  if not id then
    local exe = M.missing_program()
    if exe then
      report_missing(exe)
      return nil
    end
    local settings = M.settings()
    local capabilities = M.config.capabilities or vim.lsp.protocol.make_client_capabilities()
    id = vim.lsp.start_client({
      name = M.name,
      cmd = M.command(root),
      root_dir = root,
      workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
      capabilities = capabilities,
      init_options = { [M.section] = settings },
      settings = { [M.section] = settings },
      handlers = M.handlers,
      on_attach = on_attach,
      on_exit = function()
        if clients_by_root[root] == id then
          clients_by_root[root] = nil
        end
      end,
    })
    if not id then
      notify('could not start ' .. table.concat(M.command(root), ' '), vim.log.levels.ERROR)
      return nil
    end
    clients_by_root[root] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
  return id
end

local function with_client(fn)
  local bufnr = vim.api.nvim_get_current_buf()
  local client = M.client(bufnr)
  if not client then
    local exe = M.config.autostart and M.missing_program()
    if exe then
      notify(string.format("no premise-lsp client attached to this buffer: '%s' is not installed or not on PATH", exe), vim.log.levels.WARN)
    else
      notify('no premise-lsp client attached to this buffer', vim.log.levels.WARN)
    end
    return
  end
  fn(client, bufnr)
end

--- The cursor as (row 1-based, byte col 0-based), where a premise goes. In normal
--- mode the cursor sits *on* a character; on the last one of the line ("rw [",
--- "exact ", a half-typed name) the place meant is after it, as with `A`.
function M.cursor()
  local row, col = unpack(vim.api.nvim_win_get_cursor(0))
  local line = vim.api.nvim_get_current_line()
  local mode = vim.api.nvim_get_mode().mode
  if mode:sub(1, 1) ~= 'i' and #line > 0 then
    local char = vim.fn.matchstr(line:sub(col + 1), '^.')
    if col + #char >= #line then
      col = #line
    end
  end
  return row, col
end

local function lsp_position(row, col, encoding)
  local line = vim.api.nvim_buf_get_lines(0, row - 1, row, false)[1] or ''
  local character = col
  if encoding == 'utf-32' then
    character = vim.fn.strchars(line:sub(1, col))
  elseif encoding ~= 'utf-8' then
    if vim.fn.has('nvim-0.11') == 1 then
      character = vim.str_utfindex(line, 'utf-16', col)
    else
      character = select(2, vim.str_utfindex(line, col))
    end
  end
  return { line = row - 1, character = character }
end

--- Can the user's edit go into `bufnr`? Otherwise a message saying why (nil: it can).
local function not_editable(bufnr)
  if not vim.api.nvim_buf_is_valid(bufnr) then
    return 'the buffer is gone'
  end
  if not vim.api.nvim_buf_get_option(bufnr, 'modifiable') then
    return "the buffer is not 'modifiable'"
  end
  return nil
end

local function insert_at_cursor(text)
  local row, col = M.cursor()
  vim.api.nvim_buf_set_text(0, row - 1, col, row - 1, col, { text })
  vim.api.nvim_win_set_cursor(0, { row, col + #text })
end

--- workspace/executeCommand premise-lsp.search. `query` nil/empty → the goal at the cursor.
--- `on_result(err, result)` gets `{query, source, results = {{name, statement, kind, location, …}}}`.
function M.search(query, on_result)
  with_client(function(client, bufnr)
    local arg
    if query and query:match('%S') then
      arg = { query = query }
    else
      local row, col = M.cursor()
      arg = { uri = vim.uri_from_bufnr(bufnr), position = lsp_position(row, col, client.offset_encoding) }
    end
    request(client, 'workspace/executeCommand', { command = M.search_command, arguments = { arg } }, function(err, result)
      on_result(err, result)
    end, bufnr)
  end)
end

local function format_hit(h)
  return string.format('%s  %s', h.name, (h.statement or ''):gsub('\n', ' '))
end

--- Where a hit's source is on disk: its `uri` (absent when the server does not know), as a file name.
local function hit_fname(h)
  if type(h.uri) ~= 'string' or not h.uri:match('^file:') then
    return nil
  end
  local ok, fname = pcall(vim.uri_to_fname, h.uri)
  return ok and fname or nil
end

--- :PremiseSearch[!] [text]
function M.search_command_handler(text, to_quickfix)
  local win = vim.api.nvim_get_current_win()
  local bufnr = vim.api.nvim_get_current_buf()
  M.search(text, function(err, result)
    if err then
      notify('search failed: ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
      return
    end
    local hits = (result and result.results) or {}
    if #hits == 0 then
      notify('no premises found')
      return
    end
    if to_quickfix then
      local items = {}
      for _, h in ipairs(hits) do
        local lnum = (h.range and h.range.start and h.range.start.line or 0) + 1
        table.insert(items, { filename = hit_fname(h) or h.file or h.module, lnum = lnum, text = format_hit(h) })
      end
      vim.fn.setqflist({}, ' ', { title = 'premise-lsp: ' .. (result.query or ''), items = items })
      vim.cmd('copen')
      return
    end
    vim.ui.select(hits, { prompt = 'Premises:', kind = 'premise-lsp', format_item = format_hit }, function(choice)
      if not choice then
        return
      end
      -- the name goes into the buffer searched from, never into one shown since
      -- (another project's file in that window)
      if not vim.api.nvim_win_is_valid(win) or vim.api.nvim_win_get_buf(win) ~= bufnr then
        notify('not inserted: the window no longer shows the searched buffer', vim.log.levels.WARN)
        return
      end
      local why = not_editable(bufnr)
      if why then
        notify('not inserted: ' .. why, vim.log.levels.WARN)
        return
      end
      vim.api.nvim_set_current_win(win)
      insert_at_cursor(choice.name)
    end)
  end)
end

local function is_premise_action(a)
  return type(a) == 'table'
    and type(a.title) == 'string'
    and a.title:match(M.insert_title) ~= nil
    and (a.edit ~= nil or a.command ~= nil or (type(a.data) == 'table' and a.data[M.section] ~= nil))
end

local function apply_action(client, action)
  if action.edit then
    vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
  end
  local cmd = action.command
  if type(cmd) == 'table' then
    request(client, 'workspace/executeCommand', cmd, function() end)
  end
end

--- premise-lsp's "Insert premise" code actions at the cursor; `on_actions(client, actions)`.
function M.code_actions(on_actions)
  with_client(function(client, bufnr)
    local tick = vim.api.nvim_buf_get_changedtick(bufnr)
    local row, col = M.cursor()
    local pos = lsp_position(row, col, client.offset_encoding)
    local params = {
      textDocument = { uri = vim.uri_from_bufnr(bufnr) },
      range = { start = pos, ['end'] = pos },
      context = { diagnostics = {}, only = { 'quickfix' } },
    }
    request(client, 'textDocument/codeAction', params, function(err, result)
      if err then
        notify('code actions failed: ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
        return
      end
      on_actions(client, vim.tbl_filter(is_premise_action, result or {}), bufnr, tick)
    end, bufnr)
  end)
end

--- :PremiseInsert — choose an "Insert premise" action and apply it.
function M.insert_command_handler()
  M.code_actions(function(client, actions, bufnr, tick)
    if #actions == 0 then
      notify('no premise to insert here')
      return
    end
    vim.ui.select(actions, {
      prompt = 'Insert premise:',
      kind = 'codeaction',
      format_item = function(a)
        return (a.title:gsub('^Insert premise: ', ''))
      end,
    }, function(action)
      if not action then
        return
      end
      -- the action's edit holds positions in the text it was computed for:
      -- applied to a buffer edited since, it would land in the wrong place
      local function apply_if_current(a)
        local why = not_editable(bufnr)
          or (vim.api.nvim_buf_get_changedtick(bufnr) ~= tick and 'the buffer changed since the premises were offered; run :PremiseInsert again')
        if why then
          notify('not inserted: ' .. why, vim.log.levels.WARN)
          return false
        end
        if a then
          apply_action(client, a)
        end
        return true
      end
      if not action.edit and not action.command then
        if not apply_if_current(nil) then
          return
        end
        request(client, 'codeAction/resolve', action, function(err, resolved)
          if err then
            notify('resolve failed: ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
            return
          end
          apply_if_current(resolved)
        end, bufnr)
      else
        apply_if_current(action)
      end
    end)
  end)
end

--- A code action for a step Lean checked (from premise-lsp.try): it carries its edit.
local function is_checked_action(a)
  return type(a) == 'table'
    and a.edit ~= nil
    and type(a.data) == 'table'
    and type(a.data[M.section]) == 'table'
    and a.data[M.section].verified == true
end

--- workspace/executeCommand premise-lsp.try at the cursor. `on_result(err, result)` gets
--- `{results = {{step, premise, outcome, goals?, message?}}}`, best first.
function M.try(on_result)
  with_client(function(client, bufnr)
    local row, col = M.cursor()
    local arg = { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = lsp_position(row, col, client.offset_encoding) }
    request(client, 'workspace/executeCommand', { command = M.try_command, arguments = { arg } }, function(err, result)
      on_result(err, result)
    end, bufnr)
  end)
end

--- :PremiseTry — Lean tries the top premises in place of the cursor's step (in a
--- document of its own: the buffer is untouched); the steps that close the goal
--- (✓, first) or make progress are offered, and the chosen one replaces the step.
function M.try_command_handler()
  with_client(function(client, bufnr)
    local tick = vim.api.nvim_buf_get_changedtick(bufnr)
    local row, col = M.cursor()
    local pos = lsp_position(row, col, client.offset_encoding)
    local uri = vim.uri_from_bufnr(bufnr)
    notify('trying premises at line ' .. row .. '…')
    local cmd = { command = M.try_command, arguments = { { textDocument = { uri = uri }, position = pos } } }
    request(client, 'workspace/executeCommand', cmd, function(err, result)
      if err then
        notify('trials failed: ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
        return
      end
      local results = (result and result.results) or {}
      local works = vim.tbl_filter(function(r)
        return r.outcome == 'closes' or r.outcome == 'progress'
      end, results)
      if #works == 0 then
        notify(result and result.reason and ('nothing tried: ' .. result.reason) or ('none of the ' .. #results .. ' steps tried closes the goal or makes progress'))
        return
      end
      -- the checked steps come back as code actions with their edits (verdicts for this buffer version)
      local params = { textDocument = { uri = uri }, range = { start = pos, ['end'] = pos }, context = { diagnostics = {}, only = { 'quickfix' } } }
      request(client, 'textDocument/codeAction', params, function(err2, actions)
        local checked = vim.tbl_filter(is_checked_action, (not err2 and actions) or {})
        if #checked == 0 then
          notify('the buffer changed while premises were tried; run :PremiseTry again', vim.log.levels.WARN)
          return
        end
        vim.ui.select(checked, {
          prompt = 'Steps checked by Lean:',
          kind = 'codeaction',
          format_item = function(a)
            return a.title
          end,
        }, function(action)
          if not action then
            return
          end
          local why = not_editable(bufnr)
            or (vim.api.nvim_buf_get_changedtick(bufnr) ~= tick and 'the buffer changed since the trials; run :PremiseTry again')
          if why then
            notify('not applied: ' .. why, vim.log.levels.WARN)
            return
          end
          apply_action(client, action)
        end)
      end, bufnr)
    end, bufnr)
  end)
end

-- for the live picker (picker.lua)
M._request, M._with_client, M._lsp_position = request, with_client, lsp_position
M._not_editable, M._hit_fname, M._format_hit = not_editable, hit_fname, format_hit

function M.setup(opts)
  M.config = vim.tbl_deep_extend('force', vim.deepcopy(defaults), opts or {})
  if opts and opts.cmd then
    M.config.cmd = opts.cmd -- lists are replaced, not merged
  end
  if opts and opts.filetypes then
    M.config.filetypes = opts.filetypes
  end

  vim.cmd([[
    command! -nargs=* -bang PremiseSearch lua require('premise-lsp').search_command_handler(<q-args>, '<bang>' == '!')
    command! PremiseInsert lua require('premise-lsp').insert_command_handler()
    command! PremiseTry lua require('premise-lsp').try_command_handler()
    command! -nargs=* PremisePick lua require('premise-lsp.picker').open(<q-args>)
  ]])

  local group = vim.api.nvim_create_augroup('premise-lsp', { clear = true })
  if M.config.autostart and M.has_lsp_config() then
    -- Neovim >= 0.11: Neovim starts, reuses and attaches the client itself
    -- (and skips a command that is not executable without a word: say it once here)
    local exe = M.missing_program()
    if exe then
      report_missing(exe)
    end
    vim.lsp.config(M.name, M.lsp_config())
    vim.lsp.enable(M.name)
  elseif M.config.autostart then
    vim.api.nvim_create_autocmd('FileType', {
      group = group,
      pattern = M.config.filetypes,
      callback = function(args)
        M.attach(args.buf)
      end,
    })
    -- buffers already open when setup() runs
    for _, b in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_is_loaded(b) and vim.tbl_contains(M.config.filetypes, vim.api.nvim_buf_get_option(b, 'filetype')) then
        M.attach(b)
      end
    end
  end
end

return M
