-- Driven by test/clients/nvim.test.ts:
--   nvim --headless --clean --cmd 'set rtp^=clients/nvim' -S test/clients/nvim/message.lua <file.lean>
-- Env: PREMISE_LSP_CMD (the server), PREMISE_LSP_INDEX (an index setting naming a directory that does
-- not exist), PREMISE_LSP_MESSAGE (text the server's window/showMessage about it holds), PREMISE_LSP_OUT.
-- What the user sees: :messages.
local h = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/helpers.lua')
local result = {}

local function main()
  require('premise-lsp').setup({ cmd = h.cmd, index = os.getenv('PREMISE_LSP_INDEX') })
  local text = os.getenv('PREMISE_LSP_MESSAGE')
  result.messages = h.wait(function()
    local m = vim.fn.execute('messages')
    return m:find(text, 1, true) and m
  end, 15000, 'the message in :messages')
end

h.run(main, result)
