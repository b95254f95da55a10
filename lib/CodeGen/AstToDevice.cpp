//===- AstToDevice.cpp - isl's AST as device nodes ------------------------===//
#include "AstToDevice.h"
#include "loopy/Schedule/IslUtil.h"

#include <isl/ast.h>
#include <isl/id.h>

namespace loopy {

using namespace device;

/// The position in its nest's builds of the instance at user node \p N.
size_t instancePos(isl_ast_node *N) {
  isl_id *Id = isl_ast_node_get_annotation(N);
  size_t Pos = std::stoul(std::string(isl_id_get_name(Id)).substr(1));
  isl_id_free(Id);
  return Pos;
}

NodeList convertAst(isl_ast_node *N, const std::set<std::string> &Unrolled,
                    const std::function<NodeList(isl_ast_node *)> &User) {
  NodeList Out;
  switch (isl_ast_node_get_type(N)) {
  case isl_ast_node_block: {
    isl_ast_node_list *L = isl_ast_node_block_get_children(N);
    for (int I = 0; I < isl_ast_node_list_n_ast_node(L); ++I) {
      isl_ast_node *C = isl_ast_node_list_get_ast_node(L, I);
      for (NodePtr &X : convertAst(C, Unrolled, User))
        Out.push_back(std::move(X));
      isl_ast_node_free(C);
    }
    isl_ast_node_list_free(L);
    break;
  }
  case isl_ast_node_for: {
    isl_ast_expr *It = isl_ast_node_for_get_iterator(N);
    isl_ast_expr *Init = isl_ast_node_for_get_init(N);
    isl_ast_node *Body = isl_ast_node_for_get_body(N);
    std::string Iter = printAstExpr(It);
    if (isl_ast_node_for_is_degenerate(N) == isl_bool_true) {
      auto B = std::make_unique<Node>(Node::Kind::Block);
      auto D = std::make_unique<Node>(Node::Kind::Declare);
      D->Iter = Iter;
      D->Init = printAstExpr(Init);
      B->Body.push_back(std::move(D));
      for (NodePtr &X : convertAst(Body, Unrolled, User))
        B->Body.push_back(std::move(X));
      Out.push_back(std::move(B));
    } else {
      isl_ast_expr *Cond = isl_ast_node_for_get_cond(N);
      isl_ast_expr *Inc = isl_ast_node_for_get_inc(N);
      auto F = std::make_unique<Node>(Node::Kind::For);
      F->Iter = Iter;
      F->Init = printAstExpr(Init);
      F->Cond = printAstExpr(Cond);
      F->Step = printAstExpr(Inc);
      F->Unroll = Unrolled.count(Iter) != 0;
      F->Body = convertAst(Body, Unrolled, User);
      Out.push_back(std::move(F));
      isl_ast_expr_free(Cond);
      isl_ast_expr_free(Inc);
    }
    isl_ast_expr_free(It);
    isl_ast_expr_free(Init);
    isl_ast_node_free(Body);
    break;
  }
  case isl_ast_node_if: {
    isl_ast_expr *Cond = isl_ast_node_if_get_cond(N);
    isl_ast_node *Then = isl_ast_node_if_get_then_node(N);
    auto F = std::make_unique<Node>(Node::Kind::If);
    F->Cond = printAstExpr(Cond);
    F->Body = convertAst(Then, Unrolled, User);
    if (isl_ast_node_if_has_else_node(N) == isl_bool_true) {
      isl_ast_node *Else = isl_ast_node_if_get_else_node(N);
      F->Else = convertAst(Else, Unrolled, User);
      isl_ast_node_free(Else);
    }
    Out.push_back(std::move(F));
    isl_ast_expr_free(Cond);
    isl_ast_node_free(Then);
    break;
  }
  case isl_ast_node_user:
    Out = User(N);
    break;
  case isl_ast_node_mark: {
    isl_ast_node *C = isl_ast_node_mark_get_node(N);
    Out = convertAst(C, Unrolled, User);
    isl_ast_node_free(C);
    break;
  }
  default:
    break;
  }
  return Out;
}

} // namespace loopy
