-- Driven by test/clients/nvim.test.ts:
--   nvim --headless --clean --cmd 'set rtp^=clients/nvim' -S test/clients/nvim/root.lua <file>
-- Env: PREMISE_LSP_OUT (JSON written here), PREMISE_LSP_FILES (a JSON list of files).
-- Writes { roots = { [file] = find_root(buffer of file) } } with the plugin's default root markers.
local out_path = assert(os.getenv('PREMISE_LSP_OUT'), 'PREMISE_LSP_OUT not set')
local result = { roots = {} }
local ok, err = pcall(function()
  local pl = require('premise-lsp')
  for _, file in ipairs(vim.json.decode(assert(os.getenv('PREMISE_LSP_FILES')))) do
    vim.cmd('edit ' .. vim.fn.fnameescape(file))
    result.roots[file] = pl.find_root(vim.api.nvim_get_current_buf())
  end
end)
if not ok then
  result.error = tostring(err)
end
local f = assert(io.open(out_path, 'w'))
f:write(vim.json.encode(result))
f:close()
vim.cmd('qall!')
