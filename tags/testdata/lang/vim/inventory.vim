" Stock counts per SKU.
if exists('g:loaded_inventory')
  finish
endif
let g:loaded_inventory = 1
let s:max_count = 1000

function! inventory#Restock(sku, count) abort
  let l:have = get(s:table, a:sku, 0)
  let s:table[a:sku] = min([l:have + a:count, s:max_count])
  call s:Log('restock ' . a:sku)
endfunction

function! s:Log(msg) abort
  echomsg a:msg
endfunction

command! -nargs=+ Restock call inventory#Restock(<f-args>)
nnoremap <silent> <Plug>(inventory-total) :call inventory#Total()<CR>

const g:inventory_shelves = 40
