-- Driven by test/clients/nvim.test.ts ("the live picker"): :PremisePick's built-in UI (no picker
-- plugin installed) against the server on the sample's index, lean.nvim's abbreviations stubbed.
-- Env: PREMISE_LSP_CMD (JSON list: the server command), PREMISE_LSP_OUT (JSON written here).
local h = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/helpers.lua')
local lines, find, wait = h.lines, h.find, h.wait

local result = { steps = {} }

-- lean.nvim's abbreviations, stubbed: its `load()` table (abbreviation → text, no leader)
package.preload['lean.abbreviations'] = function()
  return {
    load = function()
      return { le = '≤', lt = '<', ['and'] = '∧', ['<|'] = '◃' }
    end,
  }
end


-- Telescope, stubbed with the parts the adapter uses (finders.new_dynamic calls `fn(prompt)` in a
-- coroutine, as Telescope's async finder loop does; plenary's oneshot channel waits in it)
local tele = { maps = {} }
local function stub_telescope()
  package.preload['plenary.async.control'] = function()
    return {
      channel = {
        oneshot = function()
          local val, co
          return function(...)
            val = { ... }
            if co then
              coroutine.resume(co)
            end
          end, function()
            if not val then
              co = coroutine.running()
              coroutine.yield()
            end
            return unpack(val)
          end
        end,
      },
    }
  end
  package.preload['telescope.finders'] = function()
    return { new_dynamic = function(o) return o end }
  end
  package.preload['telescope.previewers'] = function()
    return { new_buffer_previewer = function(o) return o end }
  end
  package.preload['telescope.sorters'] = function()
    return { highlighter_only = function() return {} end }
  end
  package.preload['telescope.actions'] = function()
    return {
      select_default = { replace = function(_, fn) tele.default = fn end },
      close = function() tele.closed = true end,
    }
  end
  package.preload['telescope.actions.state'] = function()
    return { get_selected_entry = function() return tele.selected end }
  end
  package.preload['telescope.pickers'] = function()
    return {
      new = function(_, spec)
        return {
          find = function()
            tele.spec, tele.selected, tele.closed, tele.maps = spec, nil, false, {}
            local buf = vim.api.nvim_create_buf(false, true)
            spec.attach_mappings(buf, function(mode, lhs, fn)
              tele.maps[mode .. lhs] = fn
            end)
            coroutine.wrap(function()
              local entries = vim.tbl_map(spec.finder.entry_maker, spec.finder.fn(spec.default_text))
              tele.selected = entries[1]
            end)()
          end,
        }
      end,
    }
  end
end

-- snacks.picker and fzf-lua, stubbed likewise: snacks runs the finder in a coroutine that
-- `ctx.async:suspend()` yields and `resume()` resumes; fzf-lua's fzf_live calls the function
-- with the query and collects the lines its callback gets until nil
local sn, fz = {}, {}
local function stub_snacks_fzf()
  package.preload['snacks'] = function()
    return {
      picker = {
        pick = function(spec)
          sn.spec, sn.items, sn.closed = spec, nil, false
          local co
          co = coroutine.create(function()
            local async = {
              suspend = function()
                coroutine.yield()
              end,
              resume = function()
                coroutine.resume(co)
              end,
            }
            local items = {}
            spec.finder({}, { async = async, filter = { search = spec.search } })(function(it)
              table.insert(items, it)
            end)
            sn.items = items
          end)
          coroutine.resume(co)
        end,
      },
    }
  end
  package.preload['fzf-lua'] = function()
    return {
      fzf_live = function(fn, opts)
        fz.opts, fz.lines = opts, nil
        local lines = {}
        fn({ opts.query })(function(l)
          if l == nil then
            fz.lines = lines
          else
            table.insert(lines, l)
          end
        end)
      end,
    }
  end
end

local function keys(s)
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(s, true, false, true), 'mt', false)
end

local function step(name, fn)
  local ok, err = xpcall(fn, debug.traceback)
  result.steps[name] = ok and 'ok' or tostring(err)
  -- whatever the step left open
  local picker = require('premise-lsp.picker')
  if picker.current then
    picker.current:close()
  end
  if vim.api.nvim_get_mode().mode ~= 'n' then
    keys('<Esc>')
    wait(function()
      return vim.api.nvim_get_mode().mode == 'n'
    end, 3000, 'normal mode')
  end
end

local function list_lines(ui)
  return vim.api.nvim_buf_get_lines(ui.list_buf, 0, -1, false)
end

-- the picker's first result line once it starts with `prefix`
local function wait_first(ui, prefix, what)
  return wait(function()
    local l = list_lines(ui)[1]
    return l and vim.startswith(l, prefix) and l
  end, 10000, what or (prefix .. ' first in the results'))
end

local function main()
  local pl = require('premise-lsp')
  local picker = require('premise-lsp.picker')
  pl.setup({ cmd = h.cmd, settings = { liveIndex = false } })
  local client = wait(function()
    local c = pl.client(0)
    return c and c.initialized and c
  end, 15000, 'the client to initialize')
  local searched = vim.api.nvim_get_current_buf()
  result.backend = picker.backend()

  -- every $/cancelRequest the client sends (client.cancel_request → rpc.notify)
  result.cancel_notes = {}
  local notify = client.rpc.notify
  client.rpc.notify = function(method, params)
    if method == '$/cancelRequest' then
      table.insert(result.cancel_notes, params.id)
    end
    return notify(method, params)
  end

  step('typing', function()
    local row = find('exact ')
    vim.api.nvim_win_set_cursor(0, { row, #lines()[row] - 1 })
    vim.cmd('PremisePick')
    local ui = wait(function()
      return picker.current
    end, 3000, 'the picker')
    -- opened empty: the goal at the cursor
    wait(function()
      return ui.query_text ~= nil
    end, 10000, 'the results for the goal at the cursor')
    result.prompt_mode = vim.api.nvim_get_mode().mode
    result.prompt_is_current = vim.api.nvim_get_current_buf() == ui.prompt_buf
    keys('length of a list append')
    result.length_first = wait_first(ui, "Sample.Lists.length_append'")
    result.preview = vim.api.nvim_buf_get_lines(ui.prev_buf, 0, -1, false)
    keys('<C-u>triangle inequality')
    result.triangle_first = wait_first(ui, 'Sample.Order.abs_add_le')
    result.sent = ui.s.log.sent
    result.triangle_preview = vim.api.nvim_buf_get_lines(ui.prev_buf, 0, -1, false)
  end)

  step('stale', function()
    -- two searches in one go: the first is still pending when the second is sent
    vim.cmd('PremisePick')
    local ui = wait(function()
      return picker.current
    end, 3000, 'the picker')
    local s = ui.s
    local first_called, second
    local id1 = s:search('length of a list append', function()
      first_called = true
    end)
    s:search('triangle inequality', function(hits)
      second = hits
    end)
    wait(function()
      return second
    end, 10000, 'the second search')
    -- let a late reply to the first come in, if the server sent one
    local t0 = vim.loop.now()
    wait(function()
      return vim.loop.now() - t0 > 300
    end)
    result.stale = {
      id1 = id1,
      cancelled = s.log.cancelled,
      first_called = first_called or false,
      second_first = second[1] and second[1].name,
    }
  end)

  step('enter', function()
    vim.api.nvim_set_current_buf(searched)
    local row = find('exact ')
    vim.api.nvim_win_set_cursor(0, { row, #lines()[row] - 1 })
    local before = lines()
    vim.cmd('PremisePick')
    local ui = wait(function()
      return picker.current
    end, 3000, 'the picker')
    keys('triangle inequality')
    wait_first(ui, 'Sample.Order.abs_add_le')
    keys('<CR>')
    wait(function()
      return lines(searched)[row] ~= before[row] and picker.current == nil
    end, 5000, 'the name to be inserted')
    result.enter_line = lines(searched)[row]
    result.enter_cursor = vim.api.nvim_win_get_cursor(0)
    result.enter_buffer_is_searched = vim.api.nvim_get_current_buf() == searched
    result.picker_closed = picker.current == nil
    vim.cmd('undo')
    result.enter_undone = vim.deep_equal(lines(), before)
  end)

  step('enter_fast', function()
    -- Enter typed right after the text, before its results: the text's own top result goes in
    vim.api.nvim_set_current_buf(searched)
    local row = find('exact ')
    vim.api.nvim_win_set_cursor(0, { row, #lines()[row] - 1 })
    local before = lines()
    vim.cmd('PremisePick')
    wait(function()
      return picker.current
    end, 3000, 'the picker')
    keys('triangle inequality<CR>')
    wait(function()
      return lines(searched)[row] ~= before[row] and picker.current == nil
    end, 10000, 'the name to be inserted')
    result.enter_fast_line = lines(searched)[row]
    vim.cmd('undo')
  end)

  step('import', function()
    -- a result carrying an import edit (the server's `importEdit`): both in one undo step
    vim.api.nvim_set_current_buf(searched)
    local before = lines()
    local row = find('exact ')
    vim.api.nvim_win_set_cursor(0, { row, #lines()[row] - 1 })
    local s = picker.session()
    local hit = {
      name = 'Sample.Lists.rev_rev',
      importEdit = { range = { start = { line = 0, character = 0 }, ['end'] = { line = 0, character = 0 } }, newText = 'import Sample.Lists\n' },
    }
    result.import_accepted = s:accept(hit)
    result.import_first_line = lines()[1]
    result.import_line = lines()[row + 1]
    result.import_cursor_line = vim.api.nvim_get_current_line()
    vim.cmd('undo')
    result.import_undone = vim.deep_equal(lines(), before)
  end)

  step('jump', function()
    vim.api.nvim_set_current_buf(searched)
    vim.cmd('PremisePick triangle inequality')
    local ui = wait(function()
      return picker.current
    end, 3000, 'the picker')
    wait_first(ui, 'Sample.Order.abs_add_le')
    keys('<C-o>')
    wait(function()
      return vim.api.nvim_get_current_buf() ~= searched and picker.current == nil
    end, 5000, 'the source to open')
    result.jump_bufname = vim.api.nvim_buf_get_name(0)
    result.jump_line = vim.api.nvim_get_current_line()
    result.jump_next_line = vim.api.nvim_buf_get_lines(0, vim.fn.line('.'), vim.fn.line('.') + 1, false)[1]
    result.searched_name = vim.api.nvim_buf_get_name(searched)
    vim.api.nvim_set_current_buf(searched)
  end)

  step('jump_modified', function()
    -- 'nohidden' and a modified buffer: :edit would fail (E37); the source opens in a split
    vim.api.nvim_set_current_buf(searched)
    vim.o.hidden = false
    vim.api.nvim_buf_set_lines(searched, 0, 0, false, { '-- modified' })
    local wins = #vim.api.nvim_tabpage_list_wins(0)
    local s = picker.session()
    local ok = s:jump({ name = 'Sample.Order.abs_add_le', uri = vim.uri_from_fname(vim.fn.fnamemodify(result.jump_bufname, ':p')), range = { start = { line = 0, character = 0 } } })
    result.jump_modified = {
      ok = ok,
      bufname = vim.api.nvim_buf_get_name(0),
      split = #vim.api.nvim_tabpage_list_wins(0) == wins + 1,
      searched_shown = vim.fn.bufwinnr(searched) ~= -1,
    }
    vim.cmd('close')
    vim.api.nvim_set_current_win(vim.fn.bufwinid(searched))
    vim.api.nvim_buf_set_lines(searched, 0, 1, false, {})
    vim.o.hidden = true
  end)

  step('unicode', function()
    vim.api.nvim_set_current_buf(searched)
    vim.cmd('PremisePick')
    local ui = wait(function()
      return picker.current
    end, 3000, 'the picker')
    keys('a \\lt b \\and b \\le c')
    wait(function()
      return ui.query_text == 'a < b ∧ b ≤ c'
    end, 10000, 'the expanded query to be searched')
    result.unicode_prompt = ui:text()
    result.unicode_query = ui.query_text
    result.unicode_first = list_lines(ui)[1]
  end)

  step('telescope', function()
    stub_telescope()
    picker.setup({}) -- backend: the first installed, Telescope
    result.telescope_backend = picker.backend()
    vim.api.nvim_set_current_buf(searched)
    local before = lines()
    local row = find('exact ')
    vim.api.nvim_win_set_cursor(0, { row, #lines()[row] - 1 })
    vim.cmd('PremisePick triangle inequality')
    wait(function()
      return tele.selected
    end, 10000, 'the Telescope finder to answer')
    result.telescope_first = tele.selected.display
    local pbuf = vim.api.nvim_create_buf(false, true)
    tele.spec.previewer.define_preview({ state = { bufnr = pbuf } }, tele.selected)
    result.telescope_preview = vim.api.nvim_buf_get_lines(pbuf, 0, -1, false)
    tele.default()
    wait(function()
      return lines(searched)[row] ~= before[row]
    end, 5000, 'the name to be inserted')
    result.telescope_line = lines(searched)[row]
    result.telescope_closed = tele.closed
    vim.cmd('undo')
    -- the jump key
    vim.cmd('PremisePick triangle inequality')
    wait(function()
      return tele.selected
    end, 10000, 'the Telescope finder to answer')
    tele.maps['i<C-o>']()
    wait(function()
      return vim.api.nvim_get_current_buf() ~= searched
    end, 5000, 'the source to open')
    result.telescope_jump = vim.api.nvim_buf_get_name(0)
    vim.api.nvim_set_current_buf(searched)
  end)

  -- an adapter's run: open with `backend`, wait for `ready()`, accept, then jump
  local function adapter(name, ready, accept, jump)
    picker.setup({ backend = name })
    vim.api.nvim_set_current_buf(searched)
    local before = lines()
    local row = find('exact ')
    vim.api.nvim_win_set_cursor(0, { row, #lines()[row] - 1 })
    vim.cmd('PremisePick triangle inequality')
    local r = { first = wait(ready, 10000, name .. ' to list the results') }
    accept()
    wait(function()
      return lines(searched)[row] ~= before[row]
    end, 5000, 'the name to be inserted')
    r.line = lines(searched)[row]
    vim.cmd('undo')
    vim.cmd('PremisePick triangle inequality')
    wait(ready, 10000, name .. ' to list the results')
    jump()
    wait(function()
      return vim.api.nvim_get_current_buf() ~= searched
    end, 5000, 'the source to open')
    r.jump = vim.api.nvim_buf_get_name(0)
    vim.api.nvim_set_current_buf(searched)
    return r
  end

  step('snacks', function()
    stub_snacks_fzf()
    local picker_obj = {
      close = function()
        sn.closed = true
      end,
      current = function()
        return sn.items[1]
      end,
    }
    result.snacks = adapter('snacks', function()
      return sn.items and sn.items[1] and sn.spec.format(sn.items[1])[1][1]
    end, function()
      sn.spec.confirm(picker_obj, sn.items[1])
    end, function()
      sn.spec.actions[sn.spec.win.input.keys['<C-o>'][1]](picker_obj, sn.items[1])
    end)
    result.snacks.preview = sn.items[1].preview.text
    result.snacks.closed = sn.closed
  end)

  step('fzf', function()
    result.fzf = adapter('fzf-lua', function()
      return fz.lines and fz.lines[1]
    end, function()
      fz.opts.actions['default']({ fz.lines[1] })
    end, function()
      fz.opts.actions['ctrl-o']({ fz.lines[1] })
    end)
  end)
end

h.run(main, result)
