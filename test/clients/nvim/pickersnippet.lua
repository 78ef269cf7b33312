-- Driven by test/clients/nvim-snippets.test.ts:
--   nvim --headless --clean --cmd 'set rtp^=<global install>/clients/nvim' -S test/clients/nvim/pickersnippet.lua
-- Env: PREMISE_LSP_SNIPPET (docs/editors.md's live picker setup, verbatim), PREMISE_LSP_OUT.
-- What the snippet set up: the command, the mapping, the picker's settings, the plugin's.
local h = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/helpers.lua')
local result = {}

local function main()
  assert(loadstring(assert(os.getenv('PREMISE_LSP_SNIPPET')), '=nvim-picker'))()
  result.command = vim.fn.exists(':PremisePick')
  result.mapping = vim.fn.maparg('<leader>ps', 'n')
  local picker = require('premise-lsp.picker')
  result.picker = { debounce_ms = picker.config.debounce_ms, k = picker.config.k, jump = picker.config.keys.jump }
  local pl = require('premise-lsp')
  result.upstream = pl.config.upstream
  result.index = pl.config.index or vim.NIL
end

h.run(main, result)
