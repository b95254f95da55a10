// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// Pragmas that do not parse; Clang reports them and nothing is lifted.

#pragma loopy kernal
// CHECK: reject-pragma-syntax.cpp:[[@LINE-1]]:15: error: unknown '#pragma loopy kernal'; expected 'kernel', 'shape' or 'assume'

#pragma loopy kernel(
// CHECK: reject-pragma-syntax.cpp:[[@LINE-1]]:22: error: expected '#pragma loopy kernel' or '#pragma loopy kernel(NAME)'

#pragma loopy shape(a)
// CHECK: reject-pragma-syntax.cpp:[[@LINE-1]]:22: error: expected '#pragma loopy shape(ARRAY, EXTENT, ...)' with one extent per dimension, such as 'shape(a, n, m)'

#pragma loopy assume k < m
// CHECK: reject-pragma-syntax.cpp:[[@LINE-1]]:22: error: expected '#pragma loopy assume(CONSTRAINTS)', such as 'assume(k <= m && n >= 1)'
