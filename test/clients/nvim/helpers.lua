-- What the headless Neovim scripts (run.lua, robust.lua) share: their environment,
-- writing their result, reading the buffer, and waiting inside a polled coroutine.
--   local h = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/helpers.lua')
local M = {}

M.out_path = assert(os.getenv('PREMISE_LSP_OUT'), 'PREMISE_LSP_OUT not set')
M.cmd = vim.json.decode((assert(os.getenv('PREMISE_LSP_CMD'), 'PREMISE_LSP_CMD not set')))

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
