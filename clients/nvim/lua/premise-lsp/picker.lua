-- premise-lsp's live search picker (:PremisePick [text]).
--
-- Results follow the prompt as the user types: each change is debounced
-- (`debounce_ms`), and the request still pending for an older text is
-- cancelled ($/cancelRequest through client.cancel_request) and its reply, if
-- it comes anyway, dropped. The preview shows the statement, docstring and
-- module of the selected premise. <CR> inserts the name at the cursor of the
-- buffer searched from (with the import edit the server's result may carry,
-- in the same undo step); `keys.jump` (<C-o>) opens the premise's source at
-- its declaration.
--
-- The UI is Telescope, snacks.picker or fzf-lua when installed (in that order,
-- or `backend` in setup), else a built-in floating prompt + results + preview
-- (Neovim 0.7.2 and later). Lean's `\le` → `≤` abbreviations work in the prompt
-- when lean.nvim is installed (its table, `require('lean.abbreviations').load()`).
--
--   require('premise-lsp.picker').setup({ debounce_ms = 150, k = 30, backend = nil, keys = { jump = '<C-o>' } })
local pl = require('premise-lsp')

local M = {}

local defaults = {
  debounce_ms = 150,
  k = 30,
  -- 'telescope' | 'snacks' | 'fzf-lua' | 'builtin' | nil (the first installed, else builtin)
  backend = nil,
  keys = { jump = '<C-o>', next = '<C-n>', prev = '<C-p>' },
  -- the abbreviation leader of lean.nvim (`abbreviations.leader` there)
  leader = '\\',
}

M.config = vim.deepcopy(defaults)

function M.setup(opts)
  M.config = vim.tbl_deep_extend('force', vim.deepcopy(defaults), opts or {})
end

local function notify(msg, level)
  vim.notify('premise-lsp: ' .. msg, level or vim.log.levels.INFO)
end

local new_api = vim.fn.has('nvim-0.11') == 1

local function cancel_request(client, id)
  if new_api then
    return client:cancel_request(id)
  end
  return client.cancel_request(id)
end

---------------------------------------------------------------------------
-- Abbreviations (`\le` → `≤`)

--- lean.nvim's abbreviation table (abbreviation without leader → text), or nil
--- when lean.nvim is not installed.
function M.abbreviations()
  local ok, mod = pcall(require, 'lean.abbreviations')
  if not ok or type(mod) ~= 'table' or type(mod.load) ~= 'function' then
    return nil
  end
  local ok2, table_ = pcall(mod.load)
  if not ok2 or type(table_) ~= 'table' or next(table_) == nil then
    return nil
  end
  return table_
end

local function escape_pattern(s)
  return (s:gsub('[%^%$%(%)%%%.%[%]%*%+%-%?]', '%%%0'))
end

--- `text` with each `\abbrev` replaced by its expansion. Only abbreviations
--- followed by a space or another leader are replaced, unless `final` (then one
--- at the end too): `\le` alone may still become `\leq` or `\lel`. The longest
--- known prefix of the word after the leader is taken (`\le1` → `≤1`).
function M.expand(text, abbrevs, final)
  if not abbrevs or text == '' then
    return text
  end
  local leader = M.config.leader
  local lp = escape_pattern(leader)
  return (text:gsub(lp .. '([^%s' .. lp .. ']+)()', function(word, after)
    local terminated = after <= #text
    if not terminated and not final then
      return nil
    end
    for n = #word, 1, -1 do
      local rep = abbrevs[word:sub(1, n)]
      if type(rep) == 'string' then
        return rep:gsub('%$CURSOR', '') .. word:sub(n + 1)
      end
    end
    return nil
  end))
end

--- Replace abbreviations in line 1 of `buf` (after `prefix_len` bytes, a prompt's
--- prefix) as it is typed, keeping the cursor at the same place in the text.
function M.attach_abbreviations(buf, abbrevs, prefix_len)
  if not abbrevs then
    return
  end
  prefix_len = prefix_len or 0
  vim.api.nvim_create_autocmd('TextChangedI', {
    buffer = buf,
    callback = function()
      local line = vim.api.nvim_buf_get_lines(buf, 0, 1, false)[1] or ''
      local head, text = line:sub(1, prefix_len), line:sub(prefix_len + 1)
      local win = vim.fn.bufwinid(buf)
      local col = win ~= -1 and vim.api.nvim_win_get_cursor(win)[2] or #line
      local before = M.expand(text:sub(1, math.max(col - prefix_len, 0)), abbrevs, false)
      local new = before .. text:sub(math.max(col - prefix_len, 0) + 1)
      if new ~= text then
        vim.api.nvim_buf_set_lines(buf, 0, 1, false, { head .. new })
        if win ~= -1 then
          vim.api.nvim_win_set_cursor(win, { 1, prefix_len + #before })
        end
      end
    end,
  })
end

---------------------------------------------------------------------------
-- A search session: the buffer searched from, its client, the requests

local Session = {}
Session.__index = Session

--- A session for the current window and buffer, or nil (no client: said why).
function M.session()
  local bufnr = vim.api.nvim_get_current_buf()
  local client = pl.client(bufnr)
  if not client then
    pl._with_client(function() end) -- says why (not installed, not attached)
    return nil
  end
  local row, col = pl.cursor()
  local s = setmetatable({
    client = client,
    bufnr = bufnr,
    win = vim.api.nvim_get_current_win(),
    row = row,
    col = col,
    tick = vim.api.nvim_buf_get_changedtick(bufnr),
    uri = vim.uri_from_bufnr(bufnr),
    position = pl._lsp_position(row, col, client.offset_encoding),
    abbrevs = M.abbreviations(),
    seq = 0,
    pending = nil,
    -- what happened, for tests and debugging: queries sent, requests cancelled, stale replies dropped
    log = { sent = {}, cancelled = {}, dropped = 0 },
  }, Session)
  return s
end

--- The text sent for what the prompt holds (abbreviations expanded).
function Session:query_text(text)
  return M.expand(vim.trim(text or ''), self.abbrevs, true)
end

--- Search `text` (empty: the goal at the cursor the picker was opened at);
--- `on_results(hits, query_text, err)` is called only for the latest search.
--- A search still pending is cancelled first. Returns the request id.
function Session:search(text, on_results)
  self.seq = self.seq + 1
  local seq = self.seq
  if self.pending then
    cancel_request(self.client, self.pending)
    table.insert(self.log.cancelled, self.pending)
    self.pending = nil
  end
  local q = self:query_text(text)
  local arg = { uri = self.uri, position = self.position, k = M.config.k }
  if q ~= '' then
    arg.query = q
  end
  table.insert(self.log.sent, q)
  local ok, id = pl._request(self.client, 'workspace/executeCommand', { command = pl.search_command, arguments = { arg } }, function(err, result)
    if seq ~= self.seq then
      self.log.dropped = self.log.dropped + 1
      return
    end
    self.pending = nil
    if err then
      on_results({}, q, err)
      return
    end
    on_results((result and result.results) or {}, q, nil)
  end, self.bufnr)
  if ok and seq == self.seq then
    self.pending = id
  end
  return id
end

--- Stop: cancel what is pending.
function Session:close()
  self.seq = self.seq + 1
  if self.pending then
    cancel_request(self.client, self.pending)
    table.insert(self.log.cancelled, self.pending)
    self.pending = nil
  end
end

---------------------------------------------------------------------------
-- What a hit shows, and the two actions

--- One line of the results list.
function M.format_hit(h)
  return pl._format_hit(h)
end

--- The preview of a hit: statement, docstring, module and where it is.
function M.preview_lines(h)
  if not h then
    return {}
  end
  local lines = { h.name .. (h.kind and ('  (' .. h.kind .. ')') or ''), '' }
  for _, l in ipairs(vim.split(h.statement or '', '\n', { plain = true })) do
    table.insert(lines, '  ' .. l)
  end
  if type(h.doc) == 'string' and h.doc:match('%S') then
    table.insert(lines, '')
    vim.list_extend(lines, vim.split(vim.trim(h.doc), '\n', { plain = true }))
  end
  table.insert(lines, '')
  if h.module then
    table.insert(lines, 'module ' .. h.module)
  end
  table.insert(lines, (h.location or h.file or '') .. (pl._hit_fname(h) and '' or '  (source not known)'))
  return lines
end

--- The workspace edit that imports `hit`'s module into the searched document,
--- as the server's result gives it (`importEdit`: a TextEdit or WorkspaceEdit;
--- `additionalTextEdits`: TextEdits of the searched document), or nil.
function M.import_edit(hit, uri)
  local e = hit.importEdit or hit.import_edit
  if type(e) == 'table' then
    if e.changes or e.documentChanges then
      return e
    end
    if e.range and e.newText then
      return { changes = { [uri] = { e } } }
    end
  end
  local extra = hit.additionalTextEdits
  if type(extra) == 'table' and #extra > 0 then
    return { changes = { [uri] = extra } }
  end
  return nil
end

--- Enter: insert the hit's name at the cursor the picker was opened at (and
--- apply its import edit in the same undo step). Returns true when inserted.
function Session:accept(hit)
  if not hit then
    return false
  end
  if not vim.api.nvim_win_is_valid(self.win) or vim.api.nvim_win_get_buf(self.win) ~= self.bufnr then
    notify('not inserted: the window no longer shows the searched buffer', vim.log.levels.WARN)
    return false
  end
  local why = pl._not_editable(self.bufnr)
  local import = M.import_edit(hit, self.uri)
  if not why and import and vim.api.nvim_buf_get_changedtick(self.bufnr) ~= self.tick then
    why = 'the buffer changed since the search; pick again'
  end
  if why then
    notify('not inserted: ' .. why, vim.log.levels.WARN)
    return false
  end
  vim.api.nvim_set_current_win(self.win)
  local name = hit.name
  vim.api.nvim_buf_set_text(self.bufnr, self.row - 1, self.col, self.row - 1, self.col, { name })
  -- where the name ends, followed through the import edit's new lines
  local ns = vim.api.nvim_create_namespace('premise-lsp-picker')
  local mark = vim.api.nvim_buf_set_extmark(self.bufnr, ns, self.row - 1, self.col + #name, {})
  if import then
    -- made in the same callback as the name: one undo step for both
    vim.lsp.util.apply_workspace_edit(import, self.client.offset_encoding)
  end
  local pos = vim.api.nvim_buf_get_extmark_by_id(self.bufnr, ns, mark, {})
  vim.api.nvim_buf_del_extmark(self.bufnr, ns, mark)
  vim.api.nvim_win_set_cursor(self.win, { pos[1] + 1, pos[2] })
  return true
end

-- an LSP character index in `line` → a byte index
local function byteindex(line, index, encoding)
  if new_api then
    return vim.str_byteindex(line, encoding, index, false)
  end
  return vim.lsp.util._str_byteindex_enc(line, index, encoding)
end

--- The jump key: open the hit's source at its declaration in the window
--- searched from (the jump list keeps the way back). Returns true when opened.
function Session:jump(hit)
  if not hit then
    return false
  end
  local fname = pl._hit_fname(hit)
  if not fname or vim.fn.filereadable(fname) ~= 1 then
    notify(string.format('the source of %s is not known (%s)', hit.name, hit.location or hit.file or 'no location'), vim.log.levels.WARN)
    return false
  end
  if vim.api.nvim_win_is_valid(self.win) then
    vim.api.nvim_set_current_win(self.win)
  end
  vim.cmd("normal! m'")
  -- a modified buffer with 'nohidden' cannot be left: the source opens in a split
  local leave = vim.bo.modified and not vim.o.hidden and vim.fn.bufnr(fname) ~= vim.api.nvim_get_current_buf()
  vim.cmd((leave and 'split ' or 'edit ') .. vim.fn.fnameescape(fname))
  local start = hit.range and hit.range.start or { line = 0, character = 0 }
  local lnum = math.min((start.line or 0) + 1, vim.api.nvim_buf_line_count(0))
  local line = vim.api.nvim_buf_get_lines(0, lnum - 1, lnum, false)[1] or ''
  local ok, col = pcall(byteindex, line, start.character or 0, self.client.offset_encoding or 'utf-16')
  vim.api.nvim_win_set_cursor(0, { lnum, ok and math.min(col, #line) or 0 })
  return true
end

---------------------------------------------------------------------------
-- The built-in UI: floating prompt, results and preview

local Builtin = {}
Builtin.__index = Builtin

local function float(buf, row, col, width, height, enter, title)
  local opts = { relative = 'editor', row = row, col = col, width = width, height = height, style = 'minimal', border = 'rounded' }
  if title and vim.fn.has('nvim-0.9') == 1 then
    opts.title = title
  end
  return vim.api.nvim_open_win(buf, enter, opts)
end

local function scratch()
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_option(buf, 'bufhidden', 'wipe')
  return buf
end

function M.builtin(s, text)
  local ui = setmetatable({ s = s, hits = {}, selected = 1, timer = vim.loop.new_timer(), closed = false }, Builtin)
  local width = math.max(math.min(vim.o.columns - 6, 100), 20)
  local col = math.floor((vim.o.columns - width) / 2)
  local list_h = math.max(math.min(12, vim.o.lines - 16), 3)
  local prev_h = math.max(math.min(8, vim.o.lines - list_h - 10), 2)
  ui.prompt_buf, ui.list_buf, ui.prev_buf = scratch(), scratch(), scratch()
  vim.api.nvim_buf_set_lines(ui.prompt_buf, 0, -1, false, { text or '' })
  ui.list_win = float(ui.list_buf, 4, col, width, list_h, false, ' premises ')
  ui.prev_win = float(ui.prev_buf, 6 + list_h, col, width, prev_h, false, ' preview ')
  ui.prompt_win = float(ui.prompt_buf, 1, col, width, 1, true, ' premise search ')
  vim.api.nvim_win_set_option(ui.list_win, 'cursorline', true)
  vim.api.nvim_win_set_option(ui.prev_win, 'wrap', true)
  vim.api.nvim_buf_set_option(ui.list_buf, 'modifiable', false)

  local buf = ui.prompt_buf
  M.attach_abbreviations(buf, s.abbrevs, 0)
  vim.api.nvim_create_autocmd('TextChangedI', {
    buffer = buf,
    callback = function()
      ui:schedule()
    end,
  })
  vim.api.nvim_create_autocmd({ 'BufLeave', 'WinLeave' }, {
    buffer = buf,
    once = true,
    callback = function()
      vim.schedule(function()
        ui:close()
      end)
    end,
  })
  local function map(lhs, fn)
    for _, mode in ipairs({ 'i', 'n' }) do
      vim.keymap.set(mode, lhs, fn, { buffer = buf, nowait = true })
    end
  end
  map('<CR>', function()
    ui:finish('accept')
  end)
  map(M.config.keys.jump, function()
    ui:finish('jump')
  end)
  map(M.config.keys.next, function()
    ui:move(1)
  end)
  map('<Down>', function()
    ui:move(1)
  end)
  map(M.config.keys.prev, function()
    ui:move(-1)
  end)
  map('<Up>', function()
    ui:move(-1)
  end)
  map('<C-c>', function()
    ui:close()
  end)
  vim.keymap.set('n', '<Esc>', function()
    ui:close()
  end, { buffer = buf, nowait = true })
  vim.keymap.set('n', 'q', function()
    ui:close()
  end, { buffer = buf, nowait = true })
  vim.cmd('startinsert!')
  M.current = ui
  ui:query()
  return ui
end

--- The prompt's text.
function Builtin:text()
  return (vim.api.nvim_buf_get_lines(self.prompt_buf, 0, 1, false)[1] or '')
end

--- After the prompt changed: query once typing pauses for `debounce_ms`.
function Builtin:schedule()
  self.timer:stop()
  self.timer:start(M.config.debounce_ms, 0, vim.schedule_wrap(function()
    if not self.closed then
      self:query()
    end
  end))
end

function Builtin:query()
  self.s:search(self:text(), function(hits, q, err)
    if self.closed then
      return
    end
    self.query_text = q
    self.hits = hits
    self.selected = 1
    self:render(err and ('search failed: ' .. (err.message or vim.inspect(err))) or (#hits == 0 and 'no premises found' or nil))
  end)
end

function Builtin:render(message)
  if self.closed then
    return
  end
  local lines = {}
  for _, h in ipairs(self.hits) do
    table.insert(lines, M.format_hit(h))
  end
  if message then
    lines = { message }
  end
  vim.api.nvim_buf_set_option(self.list_buf, 'modifiable', true)
  vim.api.nvim_buf_set_lines(self.list_buf, 0, -1, false, lines)
  vim.api.nvim_buf_set_option(self.list_buf, 'modifiable', false)
  if #self.hits > 0 then
    vim.api.nvim_win_set_cursor(self.list_win, { self.selected, 0 })
  end
  vim.api.nvim_buf_set_lines(self.prev_buf, 0, -1, false, M.preview_lines(self.hits[self.selected]))
end

function Builtin:move(d)
  if #self.hits == 0 then
    return
  end
  self.selected = (self.selected - 1 + d) % #self.hits + 1
  self:render()
end

function Builtin:close()
  if self.closed then
    return
  end
  self.closed = true
  self.timer:stop()
  self.timer:close()
  self.s:close()
  for _, w in ipairs({ self.prompt_win, self.list_win, self.prev_win }) do
    if vim.api.nvim_win_is_valid(w) then
      vim.api.nvim_win_close(w, true)
    end
  end
  vim.cmd('stopinsert')
  if vim.api.nvim_win_is_valid(self.s.win) then
    vim.api.nvim_set_current_win(self.s.win)
  end
  if M.current == self then
    M.current = nil
  end
end

--- Enter / the jump key: close, then act on the selected hit.
function Builtin:finish(what)
  if self.closed then
    return
  end
  local text = self.s:query_text(self:text())
  if self.query_text ~= text or self.s.pending then
    -- Enter typed before the results of the text as it is now came: search it, then act
    self.timer:stop()
    self.s:search(self:text(), function(hits, q)
      if not self.closed then
        self.hits, self.selected, self.query_text = hits, 1, q
        self:finish(what)
      end
    end)
    return
  end
  local hit = self.hits[self.selected]
  self:close()
  if not hit then
    return
  end
  -- after the prompt's insert mode has ended
  vim.schedule(function()
    if what == 'accept' then
      self.s:accept(hit)
    else
      self.s:jump(hit)
    end
  end)
end

---------------------------------------------------------------------------
-- Telescope, snacks.picker, fzf-lua

local function telescope(s, text)
  local pickers = require('telescope.pickers')
  local finders = require('telescope.finders')
  local previewers = require('telescope.previewers')
  local actions = require('telescope.actions')
  local action_state = require('telescope.actions.state')
  local channel = require('plenary.async.control').channel
  local finder = finders.new_dynamic({
    fn = function(prompt)
      local tx, rx = channel.oneshot()
      s:search(prompt, function(hits)
        tx(hits)
      end)
      return rx()
    end,
    entry_maker = function(h)
      return { value = h, display = M.format_hit(h), ordinal = h.name }
    end,
  })
  local previewer = previewers.new_buffer_previewer({
    title = 'premise',
    define_preview = function(self, entry)
      vim.api.nvim_buf_set_lines(self.state.bufnr, 0, -1, false, M.preview_lines(entry.value))
    end,
  })
  pickers
    .new({}, {
      prompt_title = 'Premises',
      default_text = text,
      finder = finder,
      -- the server ranked and filtered: no fuzzy filter of the names by the text
      sorter = require('telescope.sorters').highlighter_only({}),
      previewer = previewer,
      debounce = M.config.debounce_ms,
      attach_mappings = function(prompt_bufnr, map)
        local prefix = #(vim.fn.prompt_getprompt(prompt_bufnr) or '')
        M.attach_abbreviations(prompt_bufnr, s.abbrevs, prefix)
        local function act(what)
          return function()
            local entry = action_state.get_selected_entry()
            actions.close(prompt_bufnr)
            s:close()
            if entry then
              vim.schedule(function()
                s[what](s, entry.value)
              end)
            end
          end
        end
        actions.select_default:replace(act('accept'))
        map('i', M.config.keys.jump, act('jump'))
        map('n', M.config.keys.jump, act('jump'))
        return true
      end,
    })
    :find()
end

local function snacks(s, text)
  local Snacks = _G.Snacks or require('snacks')
  local function act(what)
    return function(picker, item)
      picker:close()
      s:close()
      item = item or picker:current()
      if item then
        vim.schedule(function()
          s[what](s, item.hit)
        end)
      end
    end
  end
  Snacks.picker.pick({
    title = 'Premises',
    search = text,
    live = true,
    finder = function(_, ctx)
      return function(cb)
        local async = ctx.async
        local hits
        s:search(ctx.filter.search, function(h)
          hits = h
          async:resume()
        end)
        if not hits then
          async:suspend()
        end
        for _, h in ipairs(hits or {}) do
          cb({ text = h.name, hit = h, preview = { text = table.concat(M.preview_lines(h), '\n'), ft = 'markdown' } })
        end
      end
    end,
    format = function(item)
      return { { item.hit.name, 'SnacksPickerLabel' }, { '  ' .. (item.hit.statement or ''):gsub('\n', ' '), 'SnacksPickerComment' } }
    end,
    preview = 'preview',
    confirm = act('accept'),
    actions = { premise_jump = act('jump') },
    win = { input = { keys = { [M.config.keys.jump] = { 'premise_jump', mode = { 'i', 'n' } } } } },
  })
end

local function fzf_lua(s, text)
  local fzf = require('fzf-lua')
  local by_line = {}
  local function line_of(h)
    local l = M.format_hit(h)
    by_line[l] = h
    return l
  end
  local function act(what)
    return function(selected)
      local hit = selected and by_line[selected[1]]
      s:close()
      if hit then
        vim.schedule(function()
          s[what](s, hit)
        end)
      end
    end
  end
  local jump = M.config.keys.jump:gsub('^<[Cc]%-(.)>$', 'ctrl-%1'):lower()
  fzf.fzf_live(function(args)
    local query = type(args) == 'table' and args[1] or args
    return function(cb)
      coroutine.wrap(function()
        local co = coroutine.running()
        local got
        s:search(query or '', function(hits)
          got = hits
          coroutine.resume(co)
        end)
        if not got then
          coroutine.yield()
        end
        for _, h in ipairs(got or {}) do
          cb(line_of(h))
        end
        cb(nil)
      end)()
    end
  end, {
    prompt = 'Premises> ',
    query = text,
    exec_empty_query = true,
    actions = { ['default'] = act('accept'), [jump] = act('jump') },
  })
end

local backends = {
  { 'telescope', 'telescope.pickers', telescope },
  { 'snacks', 'snacks', snacks },
  { 'fzf-lua', 'fzf-lua', fzf_lua },
}

--- The UI used: the configured `backend`, else the first installed, else 'builtin'.
function M.backend()
  if M.config.backend then
    return M.config.backend
  end
  for _, b in ipairs(backends) do
    if pcall(require, b[2]) then
      return b[1]
    end
  end
  return 'builtin'
end

--- :PremisePick [text]: open the live picker, its prompt holding `text`
--- (empty: the results are for the goal at the cursor until something is typed).
function M.open(text)
  local s = M.session()
  if not s then
    return nil
  end
  local which = M.backend()
  for _, b in ipairs(backends) do
    if b[1] == which then
      local ok, err = pcall(b[3], s, text or '')
      if ok then
        return s
      end
      notify(which .. ' picker failed (' .. tostring(err) .. '); using the built-in one', vim.log.levels.WARN)
    end
  end
  M.builtin(s, text or '')
  return s
end

return M
