-- Driven by test/clients/nvim.test.ts:
--   nvim --headless --clean --cmd 'set rtp^=clients/nvim' -S test/clients/nvim/api011.lua <dir/sub/Foo.lean>
-- Env: PREMISE_LSP_OUT (JSON written here).
-- The Neovim >= 0.11 code path in Debian's Neovim 0.7: vim.lsp.config,
-- vim.lsp.enable, vim.lsp.completion.enable and vim.lsp.rpc.start are stubbed
-- and record what the plugin hands them; the handed config's functions
-- (root_dir, cmd, on_attach) are then called as Neovim 0.11 would call them.
local out_path = assert(os.getenv('PREMISE_LSP_OUT'), 'PREMISE_LSP_OUT not set')
local result = { nvim = vim.version() }

local function write_out()
  local f = assert(io.open(out_path, 'w'))
  f:write(vim.json.encode(result))
  f:close()
end

local ok, err = xpcall(function()
  local configs, enabled, completion_calls, rpc_starts, started = {}, {}, {}, {}, {}
  vim.lsp.config = setmetatable({}, {
    __call = function(_, name, cfg)
      configs[name] = cfg
    end,
  })
  vim.lsp.enable = function(name)
    table.insert(enabled, name)
  end
  vim.lsp.completion = {
    enable = function(on, client_id, bufnr, opts)
      table.insert(completion_calls, { on = on, client_id = client_id, bufnr = bufnr, autotrigger = opts and opts.autotrigger })
    end,
  }
  vim.lsp.rpc.start = function(cmd, dispatchers, extra)
    table.insert(rpc_starts, { cmd = cmd, cwd = extra and extra.cwd, dispatchers = dispatchers ~= nil })
    return { fake_rpc = true }
  end
  local real_start_client = vim.lsp.start_client
  vim.lsp.start_client = function(...)
    table.insert(started, 'start_client')
    return real_start_client(...)
  end

  local pl = require('premise-lsp')
  local user_attached = {}
  pl.setup({
    cmd = { 'premise-lsp', 'serve', '--stdio' },
    upstream = 'lean',
    index = '/idx/mathlib',
    settings = { k = 7 },
    on_attach = function(client, bufnr)
      table.insert(user_attached, { client = client.id, bufnr = bufnr })
    end,
  })

  result.enabled = vim.deepcopy(enabled)
  result.started_by_plugin = vim.deepcopy(started)
  local cfg = configs['premise-lsp']
  assert(cfg, 'vim.lsp.config was not called for premise-lsp')
  result.filetypes = cfg.filetypes
  result.init_options = cfg.init_options
  result.settings = cfg.settings
  result.cmd_type = type(cfg.cmd)

  -- root_dir(bufnr, on_dir) as Neovim 0.11 calls it, for the file given on the command line
  local bufnr = vim.api.nvim_get_current_buf()
  cfg.root_dir(bufnr, function(dir)
    result.root_dir = dir
  end)
  -- cmd(dispatchers, config): premise-lsp with --lean ROOT, started in ROOT
  cfg.cmd({ on_exit = function() end }, { root_dir = result.root_dir })
  result.rpc_starts = vim.deepcopy(rpc_starts)

  -- on_attach(client, bufnr): omnifunc set when empty, vim.lsp.completion enabled, the user's on_attach called
  result.omnifunc_before = vim.bo[bufnr].omnifunc
  cfg.on_attach({ id = 42, name = 'premise-lsp' }, bufnr)
  result.omnifunc_after = vim.bo[bufnr].omnifunc
  result.completion_calls = completion_calls
  result.user_attached = user_attached
  -- a buffer whose omnifunc the user set keeps it
  local other = vim.api.nvim_create_buf(true, false)
  vim.api.nvim_buf_set_option(other, 'omnifunc', 'syntaxcomplete#Complete')
  cfg.on_attach({ id = 42, name = 'premise-lsp' }, other)
  result.user_omnifunc_kept = vim.api.nvim_buf_get_option(other, 'omnifunc')

  -- lean.nvim in front: vim.lsp.config('leanls', { cmd = require('premise-lsp').lean_cmd({ 'node', 'cli.js', 'serve', '--stdio' }) })
  pl.lean_cmd({ 'node', 'cli.js', 'serve', '--stdio' })({}, { root_dir = '/proj/root' })
  result.leanls_start = rpc_starts[#rpc_starts]
  -- :PremiseSearch/:PremiseInsert find lean.nvim's client when its server is premise-lsp
  result.leanls_is_premise = pl.is_premise_client({ name = 'leanls', server_capabilities = { executeCommandProvider = { commands = { 'premise-lsp.search' } } } })
  result.plain_leanls_is_premise = pl.is_premise_client({ name = 'leanls', server_capabilities = {} })

  -- with upstream = nil the command is a plain list (no root needed)
  pl.setup({ cmd = { 'premise-lsp', 'serve', '--stdio' }, completion = false })
  result.standalone_cmd = configs['premise-lsp'].cmd
  local third = vim.api.nvim_create_buf(true, false)
  configs['premise-lsp'].on_attach({ id = 43, name = 'premise-lsp' }, third)
  result.completion_false_omnifunc = vim.api.nvim_buf_get_option(third, 'omnifunc')
  result.completion_calls_after_false = #completion_calls

  -- no FileType autocommand of ours: Neovim 0.11 attaches by itself
  result.autocmds = #vim.api.nvim_get_autocmds({ group = 'premise-lsp' })

  -- a command that is not installed: Neovim 0.11 would skip it without a word; setup() says so, once
  local notes = {}
  vim.notify = function(msg, level)
    table.insert(notes, { msg = msg, level = level })
  end
  pl.setup({ cmd = { 'premise-lsp-not-installed-here', 'serve', '--stdio' } })
  pl.setup({ cmd = { 'premise-lsp-not-installed-here', 'serve', '--stdio' } })
  result.missing_notes = notes
end, debug.traceback)

result.error = not ok and tostring(err) or nil
pcall(write_out)
vim.cmd('qall!')
