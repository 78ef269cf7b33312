-- What the headless Neovim scripts (run.lua, robust.lua) share: their environment,
-- writing their result, reading the buffer, and waiting inside a polled coroutine.
--   local h = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/helpers.lua')
local M = {}

M.out_path = assert(os.getenv('PREMISE_LSP_OUT'), 'PREMISE_LSP_OUT not set')
M.cmd = os.getenv('PREMISE_LSP_CMD') and vim.json.decode(os.getenv('PREMISE_LSP_CMD')) -- the server command, for the scripts that set it up

function M.write_out(result)
  local f = assert(io.open(M.out_path, 'w'))
  f:write(vim.json.encode(result))
  f:close()
end

function M.lines(buf)
  return vim.api.nvim_buf_get_lines(buf or 0, 0, -1, false)
end

-- (row 1-based, col 0-based byte) just after the `nth` (default 1st) `needle` of the current buffer
function M.find(needle, nth)
  nth = nth or 1
  local seen = 0
  for i, l in ipairs(M.lines()) do
    local s, e = l:find(needle, 1, true)
    while s do
      seen = seen + 1
      if seen == nth then
        return i, e
      end
      s, e = l:find(needle, e + 1, true)
    end
  end
  error('no ' .. needle .. ' in the buffer')
end

-- Polls `cond` (errors count as false) from the running coroutine until it gives a true value.
function M.wait(cond, timeout_ms, what)
  local deadline = vim.loop.now() + (timeout_ms or 8000)
  while true do
    local ok, v = pcall(cond)
    if ok and v then
      return v
    end
    if vim.loop.now() > deadline then
      error('timed out waiting for ' .. (what or 'a condition'))
    end
    coroutine.yield()
  end
end

-- Polls premise-lsp.search for `query` (through the plugin, on the buffer's premise-lsp client)
-- until a result is named `name`: the automatic index has been built and serves it. The names found.
function M.wait_for_premise(query, name, timeout_ms)
  local pl = require('premise-lsp')
  local names, pending, last = {}, false, 'no answer'
  local ok, v = pcall(M.wait, function()
    if not pending and vim.tbl_contains(names, name) then
      return names
    end
    if not pending then
      pending = true
      pl.search(query, function(err, result)
        names = {}
        for _, r in ipairs((not err and result and result.results) or {}) do
          table.insert(names, r.name)
        end
        last = err and vim.inspect(err) or vim.inspect(names)
        pending = false
      end)
    end
  end, timeout_ms or 90000, name .. ' from the automatic index')
  if not ok then
    error(v .. ' (last answer: ' .. last .. ')')
  end
  return v
end

-- The lines of the first floating window, once one is open.
function M.wait_for_float(timeout_ms)
  return M.wait(function()
    for _, w in ipairs(vim.api.nvim_list_wins()) do
      if vim.api.nvim_win_get_config(w).relative ~= '' then
        return vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(w), 0, -1, false)
      end
    end
  end, timeout_ms or 8000, 'a floating window')
end

-- Runs `main` as a coroutine resumed every 20 ms from Neovim's main loop (so typeahead and LSP
-- callbacks run between steps), then writes `result` (with `error` on failure) and quits.
function M.run(main, result)
  local timer = vim.loop.new_timer()
  local function finish(err)
    result.error = err
    timer:stop()
    pcall(M.write_out, result)
    vim.schedule(function()
      vim.cmd('qall!')
    end)
  end
  local co = coroutine.create(function()
    local ok, err = xpcall(main, debug.traceback)
    finish(not ok and tostring(err) or nil)
  end)
  timer:start(0, 20, vim.schedule_wrap(function()
    if coroutine.status(co) == 'suspended' then
      local ok, err = coroutine.resume(co)
      if not ok then
        finish(tostring(err))
      end
    end
  end))
end

return M
