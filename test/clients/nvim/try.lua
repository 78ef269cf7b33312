-- Driven by test/clients/nvim.test.ts:
--   nvim --headless --clean --cmd 'set rtp^=clients/nvim' -S test/clients/nvim/try.lua <Trials.lean>
-- Env: PREMISE_LSP_CMD (premise-lsp in front of the fake Lean), PREMISE_LSP_OUT.
-- :PremiseTry at `  exact `: what vim.ui.select offered, and the line after the first choice.
local h = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/helpers.lua')
local result = {}

local function main()
  local pl = require('premise-lsp')
  vim.ui.select = function(items, opts, on_choice)
    result.prompt = opts.prompt
    result.items = vim.tbl_map(function(it)
      return opts.format_item and opts.format_item(it) or tostring(it)
    end, items)
    vim.schedule(function()
      on_choice(items[1], 1)
    end)
  end
  pl.setup({ cmd = h.cmd, settings = { liveIndex = false, trials = { keepOpenMs = 0 } } })
  h.wait(function()
    local c = pl.client(0)
    return c and c.initialized and c
  end, 10000, 'the client to initialize')
  local row = h.find('  exact ')
  vim.api.nvim_win_set_cursor(0, { row, 7 })
  vim.cmd('PremiseTry')
  result.line = h.wait(function()
    local l = h.lines()[row]
    return l ~= '  exact ' and l
  end, 15000, 'the step to be replaced')
  result.modified = vim.bo.modified
end

h.run(main, result)
