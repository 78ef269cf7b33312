-- Driven by test/clients/nvim.test.ts:
--   nvim --headless --clean --cmd 'set rtp^=clients/nvim' -S test/clients/nvim/run.lua <fixture.lean>
-- Env: PREMISE_LSP_CMD (JSON list: the server command), PREMISE_LSP_OUT (JSON written here).
-- Runs the scenarios as a coroutine polled by a timer (helpers.lua run), so that Neovim's main loop
-- (typeahead, insert-mode completion, LSP callbacks) keeps running between steps.
local h = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/helpers.lua')
local lines, find, wait = h.lines, h.find, h.wait
local cmd = h.cmd

local result = { nvim = vim.version(), steps = {} }

local function step(name, fn)
  local ok, err = pcall(fn)
  result.steps[name] = ok and 'ok' or tostring(err)
end

local function main()
  local pl = require('premise-lsp')
  -- vim.ui.select stand-in: record the choices, take the first one
  vim.ui.select = function(items, opts, on_choice)
    result.select = result.select or {}
    local shown = {}
    for _, it in ipairs(items) do
      table.insert(shown, opts.format_item and opts.format_item(it) or tostring(it))
    end
    table.insert(result.select, { prompt = opts.prompt, items = shown })
    vim.schedule(function()
      on_choice(items[1], 1)
    end)
  end

  -- liveIndex off: the fixture's own theorems would compete with the fixture engine's premises
  pl.setup({ cmd = cmd, settings = { codeActions = { max = 2 }, liveIndex = false } })
  result.filetype = vim.bo.filetype
  local client = wait(function()
    local c = pl.client(0)
    return c and c.initialized and c
  end, 10000, 'the client to initialize')
  result.server_name = client.server_capabilities and client.server_capabilities.executeCommandProvider and 'premise-lsp'

  step('completion', function()
    -- omnifunc completion, as a user gets it with <C-x><C-o>, after "rw [":
    -- the plugin's own setup set omnifunc (--clean leaves it empty)
    result.omnifunc = vim.bo.omnifunc
    local row, col = find('rw [')
    vim.api.nvim_win_set_cursor(0, { row, col })
    vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('a<C-x><C-o>', true, false, true), 'n', false)
    local items = wait(function()
      local info = vim.fn.complete_info({ 'items', 'pum_visible' })
      return #info.items > 0 and info.items
    end, 8000, 'the completion menu')
    result.completion = vim.tbl_map(function(it)
      return it.word
    end, items)
    vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('<C-e><Esc>', true, false, true), 'n', false)
    wait(function()
      return vim.api.nvim_get_mode().mode == 'n'
    end, 3000, 'normal mode')
  end)

  step('insert', function()
    -- :PremiseInsert on the line after "rw [" in add_comm_demo: cursor at the slot
    local row, col = find('rw [')
    vim.api.nvim_win_set_cursor(0, { row, col })
    local before = table.concat(lines(), '\n')
    vim.cmd('PremiseInsert')
    wait(function()
      return table.concat(lines(), '\n') ~= before
    end, 8000, 'the buffer to change')
    result.insert_line = lines()[row]
  end)

  step('search', function()
    local row = find('exact ')
    vim.api.nvim_win_set_cursor(0, { row, #lines()[row] })
    local before = lines()[row]
    vim.cmd('PremiseSearch m < n + 1 → m ≤ n')
    wait(function()
      return lines()[row] ~= before
    end, 8000, 'the search result to be inserted')
    result.search_line = lines()[row]
  end)

  step('search_goal', function()
    -- no text: the query comes from the cursor position
    local row = find('simp [Nat.mu')
    vim.api.nvim_win_set_cursor(0, { row, #lines()[row] - 1 })
    vim.cmd('PremiseSearch!')
    wait(function()
      return #vim.fn.getqflist() > 0
    end, 8000, 'the quickfix list')
    result.quickfix = vim.tbl_map(function(q)
      return q.text
    end, vim.fn.getqflist())
  end)
end

h.run(main, result)
