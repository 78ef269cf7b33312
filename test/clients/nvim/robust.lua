-- Driven by test/clients/nvim.test.ts ("never loses the user's edits"):
--   nvim --headless --clean --cmd 'set rtp^=clients/nvim' -S test/clients/nvim/robust.lua <dir/Complete.lean>
-- Env: PREMISE_LSP_CMD (JSON list: the server command), PREMISE_LSP_OUT (JSON written here).
-- The awkward moments of an editing session: premise-lsp not installed, setup()
-- without settings, a buffer edited or replaced while the menu is up, a buffer
-- that is not 'modifiable'. Records the buffers' text and every message.
local h = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/helpers.lua')
local lines, find, wait = h.lines, h.find, h.wait
local cmd = h.cmd

local result = { steps = {}, messages = {} }

local messages -- the current step's messages
vim.notify = function(msg, level)
  table.insert(messages, { msg = msg, level = level or 0 })
end

-- vim.ui.select stand-in: runs `before_choice` (what the user does while the menu is up), takes the first item
local before_choice
vim.ui.select = function(items, _, on_choice)
  vim.schedule(function()
    if before_choice then
      before_choice()
    end
    on_choice(items[1], 1)
  end)
end

-- a step: its messages, Vim errors (v:errmsg: an error with a stack trace in a callback) and own result
local function step(name, fn)
  messages = {}
  vim.v.errmsg = ''
  local rec = {}
  local ok, err = pcall(fn, rec)
  rec.status = ok and 'ok' or tostring(err)
  rec.messages = messages
  rec.errmsg = vim.v.errmsg
  result.steps[name] = rec
end

-- wait for the plugin's answer to a command: a message, a Vim error, or `changed()`
local function until_answer(changed)
  wait(function()
    return #messages > 0 or vim.v.errmsg ~= '' or (changed and changed())
  end, 8000, 'a message, an error or an edit')
end

local function main()
  local pl = require('premise-lsp')
  local file = vim.api.nvim_buf_get_name(0)
  local dir = vim.fn.fnamemodify(file, ':h')

  step('missing', function(rec)
    pl.setup({ cmd = { 'premise-lsp-not-installed-here', 'serve', '--stdio' } })
    vim.cmd('edit ' .. dir .. '/Other.lean')
    vim.cmd('edit ' .. file)
    vim.cmd('PremiseInsert')
  end)

  step('no_settings', function(rec)
    -- setup() with neither settings nor index: the section is still a JSON object
    pl.setup({ cmd = cmd })
    wait(function()
      local c = pl.client(0)
      return c and c.initialized
    end, 10000, 'the client to initialize')
    local row = find('exact ')
    vim.api.nvim_win_set_cursor(0, { row, #lines()[row] })
    vim.cmd('PremiseSearch m < n + 1 → m ≤ n')
    wait(function()
      return lines()[row] ~= '  exact '
    end, 8000, 'the search result')
    rec.line = lines()[row]
    vim.cmd('undo')
  end)

  step('stale_action', function(rec)
    -- :PremiseInsert; while the menu is up, a line is added above
    local buf = vim.api.nvim_get_current_buf()
    local row, col = find('rw [')
    vim.api.nvim_win_set_cursor(0, { row, col })
    local typed
    before_choice = function()
      vim.api.nvim_buf_set_lines(buf, 0, 0, false, { '-- a line typed meanwhile' })
      typed = table.concat(lines(buf), '\n')
    end
    vim.cmd('PremiseInsert')
    until_answer(function()
      return typed and table.concat(lines(buf), '\n') ~= typed
    end)
    before_choice = nil
    rec.lines = lines(buf)
    vim.api.nvim_buf_set_lines(buf, 0, 1, false, {})
  end)

  step('other_buffer', function(rec)
    -- :PremiseSearch; while the menu is up, the window switches to another project's file
    local buf = vim.api.nvim_get_current_buf()
    local other = dir .. '/other/Notes.lean'
    vim.fn.mkdir(dir .. '/other', 'p')
    vim.fn.writefile({ 'theorem other : True := by', '  trivial' }, other)
    local row = find('exact ')
    vim.api.nvim_win_set_cursor(0, { row, #lines()[row] })
    before_choice = function()
      vim.cmd('edit ' .. other)
    end
    vim.cmd('PremiseSearch m < n + 1 → m ≤ n')
    until_answer(function()
      return vim.api.nvim_buf_get_name(0) == other and lines()[1] ~= 'theorem other : True := by'
    end)
    before_choice = nil
    rec.other_lines = lines()
    rec.lines = lines(buf)
    vim.cmd('buffer ' .. buf)
  end)

  step('not_modifiable', function(rec)
    vim.bo.modifiable = false
    local row, col = find('rw [')
    vim.api.nvim_win_set_cursor(0, { row, col })
    vim.cmd('PremiseInsert')
    until_answer()
    rec.insert_messages, rec.insert_errmsg = messages, vim.v.errmsg
    messages, vim.v.errmsg = {}, ''
    vim.cmd('PremiseSearch m < n + 1 → m ≤ n')
    until_answer()
    rec.lines = lines()
    vim.bo.modifiable = true
  end)
end

h.run(main, result)
