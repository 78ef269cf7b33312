-- Driven by test/clients/nvim.test.ts:
--   nvim --headless --clean --cmd 'set rtp^=clients/nvim' -S test/clients/nvim/checkhealth.lua <Lake project file>
-- Env: PREMISE_LSP_OUT; PATH holds the global install (premise-lsp) and `lake`.
-- :checkhealth premise-lsp for three setups: as the README says (no index), a command that is not
-- installed, an `index` that does not exist. The report buffers' lines are written out.
local h = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/helpers.lua')
local result = { reports = {} }

local function report(name, opts)
  local pl = require('premise-lsp')
  pl.setup(vim.tbl_extend('force', { autostart = false }, opts))
  local file = vim.api.nvim_get_current_buf()
  vim.cmd('checkhealth premise-lsp')
  result.reports[name] = vim.api.nvim_buf_get_lines(0, 0, -1, false)
  vim.cmd('tabclose')
  vim.api.nvim_set_current_buf(file)
end

local function main()
  report('ok', { upstream = 'lean' })
  report('missing', { cmd = { 'premise-lsp-not-installed-here', 'serve', '--stdio' } })
  report('bad_index', { upstream = 'lean', index = '/nonexistent/premise-lsp-index' })
end

h.run(main, result)
