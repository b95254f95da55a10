// RUN: not %loopy-extract %s 2>&1 | FileCheck %s
// An index or a scalar declared before the nest is private to the kernel
// only if nothing reads the value the nest leaves in it.

int g;

void index_read_after(int n, double *restrict y, int *last)
{
  int i;
#pragma loopy kernel(index_read_after)
  for (i = 0; i < n; i++)
    y[i] = 1.0;
  *last = i;
}
// CHECK: reject-c89-declarations.c:[[@LINE-2]]:11: error: 'i' is read here, outside the loops over it, so the value that the loop on line 11 leaves in it may be used, but a lifted loop leaves no value; declare the index in the loop, such as 'for (int i = 0; ...)', or read another variable here
// CHECK: reject-c89-declarations.c:[[@LINE-5]]:8: note: the loop sets 'i' here

#pragma loopy kernel
void global_index(int n, double *restrict y)
{
  for (g = 0; g < n; g++)
    y[g] = 1.0;
}
// CHECK: reject-c89-declarations.c:[[@LINE-3]]:8: error: loop index 'g' is not a local variable of the function; declare it in the loop, such as 'for (int g = 0; ...)'

void scalar_read_after(int n, double *restrict y, const double *x,
                       double *out)
{
  int i;
  double t;
#pragma loopy kernel(scalar_read_after)
  for (i = 0; i < n; i++) {
    t = x[i];
    y[i] = t;
  }
  *out = t;
}
// CHECK: reject-c89-declarations.c:[[@LINE-5]]:5: error: assignment to 't', declared outside the kernel, cannot be lifted: it is read outside the loop nest, on line [[@LINE-2]], but a kernel writes only arrays; store the value through a pointer argument
// CHECK: reject-c89-declarations.c:[[@LINE-3]]:10: note: 't' is read here

#pragma loopy kernel
void scalar_used_after(int n, double *restrict y, const double *x)
{
  int i;
  double t;
  for (i = 0; i < n; i++) {
    t = x[i];
    y[i] = t;
  }
  y[0] = t;
}
// CHECK: reject-c89-declarations.c:[[@LINE-5]]:5: error: 't' is assigned in every iteration of the loop over 'i' but not accumulated, so only the last value would remain; accumulate with '+=', '-=', '*=', max or min, or index it with 'i'
// CHECK: reject-c89-declarations.c:[[@LINE-3]]:10: note: its value is read here, after the loop, where only the last iteration's would remain

#pragma loopy kernel
void chained_start(int n, double *restrict y)
{
  int i, j;
  for (i = j = 0; i < n; i++)
    y[i] = 1.0;
}
// CHECK: reject-c89-declarations.c:[[@LINE-3]]:8: error: the loop must set its index to a start value, such as 'for (int i = 0; ...)' or 'for (i = 0; ...)'

// Set again on one path only: the loop's value may still be read.
void index_set_on_one_path(int n, double *restrict y, int *last, int c)
{
  int i;
#pragma loopy kernel(index_set_on_one_path)
  for (i = 0; i < n; i++)
    y[i] = 1.0;
  if (c)
    i = 7;
  *last = i;
}
// CHECK: reject-c89-declarations.c:[[@LINE-2]]:11: error: 'i' is read here, outside the loops over it, so the value that the loop on line [[@LINE-6]] leaves in it may be used

// The next iteration of a host loop reads what the nest leaves.
void index_read_in_host_loop(int n, int m, double *restrict y, double *out)
{
  int i, r;
  i = 0;
  for (r = 0; r < m; r++) {
    out[r] = i;
#pragma loopy kernel(index_read_in_host_loop)
    for (i = 0; i < n; i++)
      y[i] = 1.0;
  }
}
// CHECK: reject-c89-declarations.c:[[@LINE-6]]:14: error: 'i' is read here, outside the loops over it, so the value that the loop on line [[@LINE-4]] leaves in it may be used

// An index that the nest also sets and reads outside its loop.
#pragma loopy kernel
void index_also_scalar(int n, double *restrict y)
{
  int i, j;
  for (i = 0; i < n; i++) {
    j = i + 1;
    y[i] = 2.0 * j;
    for (j = 0; j < n; j++)
      y[i] += j;
  }
}
// CHECK: reject-c89-declarations.c:[[@LINE-5]]:18: error: 'j' is read here, in the kernel but outside the loop on line [[@LINE-4]] that sets it: a lifted index has a value only inside its loop; give the value read here a variable of its own
// CHECK: reject-c89-declarations.c:[[@LINE-7]]:5: note: 'j' is set here, outside the loops over it

// An index that the nest sets outside its loop, read after the nest.
void index_stored_in_nest(int n, double *restrict y, int *last)
{
  int i, j;
#pragma loopy kernel(index_stored_in_nest)
  for (i = 0; i < n; i++) {
    for (j = 0; j < n; j++)
      y[i] += j;
    j = 3;
  }
  *last = j;
}
// CHECK: reject-c89-declarations.c:[[@LINE-4]]:5: error: assignment to 'j', declared outside the kernel, cannot be lifted: it is read outside the loop nest, on line [[@LINE-2]], but a kernel writes only arrays; store the value through a pointer argument
// CHECK: reject-c89-declarations.c:[[@LINE-3]]:11: note: 'j' is read here

// A temporary read before the iteration sets it carries a value from one
// iteration to the next: that dependence is the error.
#pragma loopy kernel
void scalar_carried(int n, double *restrict y, const double *x)
{
  int i;
  double t;
  t = 0;
  for (i = 0; i < n; i++) {
    y[i] = t;
    t = x[i];
  }
}
// CHECK: reject-c89-declarations.c:[[@LINE-4]]:5: error: this reads 't' before the iteration of the loop over 'i' sets it, so it reads the value that the previous iteration left: the iterations depend on each other; set 't' before reading it in every iteration
// CHECK: reject-c89-declarations.c:[[@LINE-4]]:5: note: 't' is set here, later in the iteration
