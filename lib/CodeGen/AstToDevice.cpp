//===- AstToDevice.cpp - isl's AST as device nodes ------------------------===//
#include "AstToDevice.h"
#include "loopy/Schedule/IslUtil.h"

#include <isl/ast.h>
#include <isl/id.h>

namespace loopy {

using namespace device;

size_t instancePos(isl_ast_node *N) {
  isl::id Id = isl::manage(isl_ast_node_get_annotation(N));
  return std::stoul(Id.name().substr(1));
}

NodeList convertAst(const isl::ast_node &N,
                    const std::set<std::string> &Unrolled,
                    const std::function<NodeList(isl_ast_node *)> &User) {
  NodeList Out;
  if (N.isa<isl::ast_node_block>()) {
    isl::ast_node_list L = N.as<isl::ast_node_block>().children();
    for (unsigned I = 0, E = L.size(); I < E; ++I)
      for (NodePtr &X : convertAst(L.at(I), Unrolled, User))
        Out.push_back(std::move(X));
  } else if (N.isa<isl::ast_node_for>()) {
    isl::ast_node_for F = N.as<isl::ast_node_for>();
    std::string Iter = printAstExpr(F.iterator());
    if (F.is_degenerate()) {
      auto B = std::make_unique<Node>(Node::Kind::Block);
      auto D = std::make_unique<Node>(Node::Kind::Declare);
      D->Iter = Iter;
      D->Init = printAstExpr(F.init());
      B->Body.push_back(std::move(D));
      for (NodePtr &X : convertAst(F.body(), Unrolled, User))
        B->Body.push_back(std::move(X));
      Out.push_back(std::move(B));
    } else {
      auto L = std::make_unique<Node>(Node::Kind::For);
      L->Iter = Iter;
      L->Init = printAstExpr(F.init());
      L->Cond = printAstExpr(F.cond());
      L->Step = printAstExpr(F.inc());
      L->Unroll = Unrolled.count(Iter) != 0;
      L->Body = convertAst(F.body(), Unrolled, User);
      Out.push_back(std::move(L));
    }
  } else if (N.isa<isl::ast_node_if>()) {
    isl::ast_node_if If = N.as<isl::ast_node_if>();
    auto F = std::make_unique<Node>(Node::Kind::If);
    F->Cond = printAstExpr(If.cond());
    F->Body = convertAst(If.then_node(), Unrolled, User);
    if (If.has_else_node())
      F->Else = convertAst(If.else_node(), Unrolled, User);
    Out.push_back(std::move(F));
  } else if (N.isa<isl::ast_node_user>()) {
    Out = User(N.get());
  } else if (N.isa<isl::ast_node_mark>()) {
    Out = convertAst(N.as<isl::ast_node_mark>().node(), Unrolled, User);
  }
  return Out;
}

} // namespace loopy
