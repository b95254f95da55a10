// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// Subscripting a class calls its operator[]; pass the elements' pointer.

struct Buffer {
  float *data;
  float &operator[](int i) { return data[i]; }
};

#pragma loopy kernel
void zero(int n, Buffer b) {
  for (int i = 0; i < n; i++)
    b[i] = 0;
}

// CHECK: reject-class-subscript.cpp:[[@LINE-3]]:5: error: 'b[i]' cannot be lifted: it calls a member or operator function of a class; pass a pointer to the elements, such as 'v.data()'
