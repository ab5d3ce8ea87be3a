package tags

/*
#include <stddef.h>
extern void ts_set_allocator(void *(*)(size_t), void *(*)(size_t, size_t), void *(*)(void *, size_t), void (*)(void *));
static void repomap_use_libc_allocator(void) { ts_set_allocator(NULL, NULL, NULL, NULL); }
*/
import "C"

import "sync"

// useLibcAllocator points tree-sitter back at the C library's malloc and
// free. go-tree-sitter installs allocation hooks that call into Go for
// every allocation; its Go-side default behind those hooks is the same
// malloc and free, so memory allocated either way may be freed the other
// way. Skipping the round trip makes parsing markedly faster.
var useLibcAllocator = sync.OnceFunc(libcAllocator)

func libcAllocator() { C.repomap_use_libc_allocator() }
