-- Driven by test/clients/nvim-snippets.test.ts:
--   nvim --headless --clean -S test/clients/nvim/lazy.lua
-- Env: PREMISE_LSP_SNIPPET (the README's lazy.nvim spec, verbatim), PREMISE_LSP_FILE (a .lean file
-- of a Lake project), PREMISE_LSP_OUT. PATH has the global install (premise-lsp, and `lake`: the fake
-- Lean); npm_config_prefix is that install's prefix.
-- lazy.nvim is not installed: this does what it does with such a spec (the spec file is a chunk
-- returning the spec; `dir` goes on the runtimepath, the plugin's ftdetect files are sourced at
-- startup, `config` runs on the first FileType of `ft`).
local h = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/helpers.lua')
local result = { steps = {} }

local function main()
  local spec = assert(loadstring(assert(os.getenv('PREMISE_LSP_SNIPPET')), '=nvim-lazy'))()
  result.dir = spec.dir
  vim.opt.rtp:prepend(spec.dir)
  for _, f in ipairs(vim.fn.glob(spec.dir .. '/ftdetect/*.vim', false, true)) do
    vim.cmd('source ' .. vim.fn.fnameescape(f))
  end
  vim.api.nvim_create_autocmd('FileType', { pattern = spec.ft, once = true, callback = spec.config })
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('PREMISE_LSP_FILE')))
  result.filetype = vim.bo.filetype
  local pl = require('premise-lsp')
  local client = h.wait(function()
    local c = pl.client(0)
    return c and c.initialized and c
  end, 20000, 'the client to initialize')
  result.client_name = client.name
  result.cmd = client.config.cmd
  result.names = h.wait_for_premise('quux wibble commute', 'Proj.quux_wibble')
  -- K on a name: hover (Neovim 0.7 has no K mapping of its own; the plugin made one)
  local row, col = h.find('Nat.add_comm')
  vim.api.nvim_win_set_cursor(0, { row, col - 1 })
  result.k_mapping = vim.fn.maparg('K', 'n')
  vim.api.nvim_feedkeys('K', 'mx', false)
  result.hover = h.wait_for_float(8000)
end

h.run(main, result)
