-- Driven by test/clients/nvim-snippets.test.ts:
--   nvim --headless --clean --cmd 'set rtp^=<global install>/clients/nvim' -S test/clients/nvim/leannvim.lua
-- Env: PREMISE_LSP_SNIPPET (docs/editors.md's lean.nvim setup, verbatim), PREMISE_LSP_FILE (a .lean
-- file of a Lake project with a `-- goal:` annotation), PREMISE_LSP_ROOT (its root), PREMISE_LSP_OUT.
-- Neovim 0.7.2 has neither lean.nvim nor vim.lsp.config: `require('lean')` is a stand-in and
-- vim.lsp.config records what the snippet hands it. The client is then started as Neovim 0.11
-- starts a config whose cmd is a function (cmd(dispatchers, config) → vim.lsp.rpc.start(argv, …,
-- {cwd})), under the name lean.nvim looks for: `leanls`.
local h = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/helpers.lua')
local result = { steps = {} }

local function main()
  package.preload['lean'] = function()
    return { setup = function(opts) result.lean_setup = opts end }
  end
  local configs = {}
  vim.lsp.config = setmetatable({}, { __call = function(_, name, cfg) configs[name] = cfg end })
  vim.lsp.enable = function(name) result.enabled = name end
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('PREMISE_LSP_FILE')))
  assert(loadstring(assert(os.getenv('PREMISE_LSP_SNIPPET')), '=nvim-lean.nvim'))()
  local cfg = assert(configs.leanls, 'the snippet configured no leanls')
  result.init_options = cfg.init_options
  local root = os.getenv('PREMISE_LSP_ROOT')
  local started
  local real_start = vim.lsp.rpc.start
  vim.lsp.rpc.start = function(argv, _, extra)
    started = { cmd = argv, cwd = extra and extra.cwd }
    return {}
  end
  cfg.cmd({}, { root_dir = root })
  vim.lsp.rpc.start = real_start
  result.started = started
  local id = vim.lsp.start_client({
    name = 'leanls',
    cmd = started.cmd,
    cmd_cwd = started.cwd,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    init_options = cfg.init_options,
  })
  vim.lsp.buf_attach_client(0, id)
  local client = h.wait(function()
    local c = vim.lsp.get_client_by_id(id)
    return c and c.initialized and c
  end, 20000, 'leanls to initialize')
  -- what lean.nvim does: find the client by name, ask it for the goal and for an RPC session
  local names = {}
  for _, c in ipairs(vim.lsp.get_active_clients()) do
    table.insert(names, c.name)
  end
  result.client_names = names
  result.premise_client = require('premise-lsp').client(0).name
  local row, col = h.find('  simp')
  local pos = { line = row - 1, character = 2 }
  local uri = vim.uri_from_bufnr(0)
  local replies = {}
  client.request('$/lean/plainGoal', { textDocument = { uri = uri }, position = pos }, function(err, res)
    replies.plainGoal = { err = err, res = res }
  end, 0)
  client.request('$/lean/rpc/connect', { uri = uri }, function(err, res)
    replies.rpc = { err = err, res = res }
  end, 0)
  h.wait(function()
    return replies.plainGoal and replies.rpc
  end, 15000, 'the replies of plainGoal and rpc/connect')
  result.plain_goal = replies.plainGoal
  result.rpc_connect = replies.rpc
  result.names = h.wait_for_premise('quux wibble commute', 'Proj.quux_wibble')
  vim.cmd('PremiseSearch! quux wibble commute')
  h.wait(function()
    return #vim.fn.getqflist() > 0
  end, 8000, 'the quickfix list')
  result.quickfix = vim.tbl_map(function(q)
    return q.text
  end, vim.fn.getqflist())
end

h.run(main, result)
