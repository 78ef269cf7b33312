-- Driven by test/clients/nvim.test.ts against a server on a real index (the sample's), whose
-- search hits carry the `uri` of their source:
--   nvim --headless --clean --cmd 'set rtp^=clients/nvim' -S test/clients/nvim/links.lua <file.lean>
-- Env: PREMISE_LSP_CMD, PREMISE_LSP_OUT (helpers.lua), PREMISE_LSP_QUERY (the text searched).
-- :PremiseSearch! <text>, then :cfirst; writes where the cursor went.
local h = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/helpers.lua')
local wait = h.wait

local result = {}

local function main()
  local pl = require('premise-lsp')
  pl.setup({ cmd = h.cmd, settings = { liveIndex = false } })
  local searched = vim.api.nvim_buf_get_name(0)
  wait(function()
    local c = pl.client(0)
    return c and c.initialized and c
  end, 10000, 'the client to initialize')
  vim.cmd('PremiseSearch! ' .. assert(os.getenv('PREMISE_LSP_QUERY')))
  wait(function()
    return #vim.fn.getqflist() > 0
  end, 8000, 'the quickfix list')
  result.quickfix = vim.tbl_map(function(q)
    return { text = q.text, bufname = vim.api.nvim_buf_get_name(q.bufnr), lnum = q.lnum }
  end, vim.fn.getqflist())
  vim.cmd('cfirst')
  result.bufname = vim.api.nvim_buf_get_name(0)
  result.searched = searched
  result.line = vim.api.nvim_win_get_cursor(0)[1]
  result.text = vim.api.nvim_get_current_line()
end

h.run(main, result)
