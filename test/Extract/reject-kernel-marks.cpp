// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// Kernel pragmas on targets that cannot be lifted, or given twice.

#pragma loopy kernel
template <class T> void generic(int n, T *y) {
  for (int i = 0; i < n; i++)
    y[i] = 0;
}
// CHECK: reject-kernel-marks.cpp:[[@LINE-4]]:25: error: function template 'generic' cannot be lifted: its types are not known until it is instantiated; mark a plain function or a loop nest

void twice(int n, float *__restrict y) {
#pragma loopy kernel
#pragma loopy kernel
// CHECK: reject-kernel-marks.cpp:[[@LINE-1]]:15: error: '#pragma loopy kernel' is given twice for this loop
  for (int i = 0; i < n; i++)
    y[i] = 0;
}

#pragma loopy kernel
void clear(int n, float *__restrict y) {
  for (int i = 0; i < n; i++)
    y[i] = 0;
}

#pragma loopy kernel(clear)
// CHECK: reject-kernel-marks.cpp:[[@LINE-1]]:15: error: a kernel named 'clear' is lifted already; name this one with '#pragma loopy kernel(NAME)'
// CHECK: reject-kernel-marks.cpp:[[@LINE-8]]:15: note: the other kernel 'clear' is here
void clear_again(int n, float *__restrict y) {
  for (int i = 0; i < n; i++)
    y[i] = 0;
}
