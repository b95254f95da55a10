//===- LoopNests.cpp - isl's loop nests, generated once -------------------===//
#include "LoopNests.h"

#include <isl/ast.h>
#include <isl/ast_build.h>
#include <isl/id.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/union_map.h>

#include <sstream>

namespace loopy {

static isl_ast_node *atEachDomain(isl_ast_node *Node, isl_ast_build *Build,
                                  void *User) {
  // The statements are printed later, from the build kept here, by every
  // lowering that finds the nest in the cache.
  auto *Builds = static_cast<std::vector<isl::ast_build> *>(User);
  Builds->push_back(isl::manage(isl_ast_build_copy(Build)));
  isl_id *Id =
      isl_id_alloc(isl_ast_node_get_ctx(Node),
                   ("I" + std::to_string(Builds->size() - 1)).c_str(), nullptr);
  return isl_ast_node_set_annotation(Node, Id);
}

const LoweringCache::Nest &loopNest(LoweringCache &Cache,
                                    isl::union_map Schedule, isl::set Context,
                                    const std::vector<std::string> &Iterators,
                                    const std::vector<bool> &Unroll) {
  isl::ctx Ctx = Schedule.ctx();
  // What isl's result depends on: the schedule, the context and the
  // options (the iterator names and the dimensions to unroll).
  auto Text = [](const auto &X) {
    std::ostringstream OS;
    OS << X;
    return OS.str();
  };
  std::string Key = Text(Schedule) + " | " + Text(Context) + " |";
  for (size_t D = 0; D < Iterators.size(); ++D)
    Key += " " + Iterators[D] + (Unroll[D] ? "!" : "");
  if (const LoweringCache::Nest *N = Cache.findNest(Key))
    return *N;

  isl_ast_build *B = isl::ast_build::from_context(Context).release();
  isl_id_list *Ids = isl_id_list_alloc(Ctx.get(), Iterators.size());
  for (const std::string &N : Iterators)
    Ids = isl_id_list_add(Ids, isl_id_alloc(Ctx.get(), N.c_str(), nullptr));
  B = isl_ast_build_set_iterators(B, Ids);
  isl_union_map *Opt =
      isl_union_map_empty(isl_space_params_alloc(Ctx.get(), 0));
  // Every dimension is unrolled or "atomic": a loop is generated once, its
  // body guarded where the domain is a union of pieces (holes, triangles
  // cut by them), rather than copied per combination of pieces, which
  // multiplies code and isl's work with each hole.
  for (size_t D = 0; D < Unroll.size(); ++D) {
    isl_space *Dom = isl_space_set_alloc(Ctx.get(), 0, Unroll.size());
    isl_space *Ran = isl_space_set_alloc(Ctx.get(), 0, 1);
    Ran = isl_space_set_tuple_name(Ran, isl_dim_set,
                                   Unroll[D] ? "unroll" : "atomic");
    isl_set *R = isl_set_fix_si(isl_set_universe(Ran), isl_dim_set, 0, D);
    isl_map *M = isl_map_from_domain_and_range(isl_set_universe(Dom), R);
    Opt = isl_union_map_add_map(Opt, M);
  }
  B = isl_ast_build_set_options(B, Opt);
  LoweringCache::Nest N;
  B = isl_ast_build_set_at_each_domain(B, atEachDomain, &N.Builds);
  isl::ast_build Build = isl::manage(B);
  N.Tree = Build.node_from_schedule_map(Schedule);
  return Cache.insertNest(Key, std::move(N));
}

} // namespace loopy
