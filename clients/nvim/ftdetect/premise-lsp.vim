" Lean 4 and Isabelle theory files, unless another plugin (lean.nvim,
" isabelle-lsp.nvim) or Neovim itself already chose a filetype.
autocmd BufRead,BufNewFile *.lean setfiletype lean
autocmd BufRead,BufNewFile *.thy setfiletype isabelle
