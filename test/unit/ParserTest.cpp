//===- ParserTest.cpp - Unit tests of the .loop parser's syntax tree ------===//
//
// Checks the shape of the ast::Module the parser builds: parameter groups,
// types, shape expressions, reductions, and what survives a syntax error.
//
//===----------------------------------------------------------------------===//
#include "loopy/Frontend/Parser.h"

#include <gtest/gtest.h>

#include <memory>
#include <sstream>

using namespace loopy;

namespace {

struct Parsed {
  std::unique_ptr<SourceManager> SM;
  std::ostringstream Err;
  ast::Module M;
  unsigned Errors = 0;

  std::string_view text(SourceRange R) const { return SM->slice(R); }
};

std::unique_ptr<Parsed> parse(const std::string &Text) {
  auto P = std::make_unique<Parsed>();
  P->SM = std::make_unique<SourceManager>("t.loop", Text);
  DiagnosticEngine Diags(P->SM.get(), P->Err);
  P->M = parseModule(*P->SM, Diags);
  P->Errors = Diags.errorCount();
  return P;
}

using EK = ast::Expr::Kind;
using TK = ast::TypeSpec::Kind;

TEST(Parser, ParameterGroupsShareTheirType) {
  auto P = parse("kernel k(n, m: index; a, b: in f32[n, m]; s: f64) {}");
  ASSERT_EQ(P->Errors, 0u) << P->Err.str();
  ASSERT_EQ(P->M.Kernels.size(), 1u);
  const ast::KernelDecl &K = P->M.Kernels[0];
  EXPECT_EQ(K.Name, "k");
  ASSERT_EQ(K.Params.size(), 5u);
  const char *Names[] = {"n", "m", "a", "b", "s"};
  for (unsigned I = 0; I < 5; ++I)
    EXPECT_EQ(K.Params[I].Name, Names[I]);
  EXPECT_EQ(K.Params[0].Type.K, TK::Index);
  EXPECT_EQ(K.Params[1].Type.K, TK::Index);
  EXPECT_EQ(K.Params[4].Type.K, TK::Scalar);
  EXPECT_EQ(K.Params[4].Type.DType, "f64");
  // Each array of a group gets its own copy of the shape.
  for (unsigned I : {2u, 3u}) {
    const ast::TypeSpec &T = K.Params[I].Type;
    EXPECT_EQ(T.K, TK::Array);
    EXPECT_EQ(T.Mode, ast::ArgMode::In);
    EXPECT_EQ(T.DType, "f32");
    ASSERT_EQ(T.Shape.size(), 2u);
    EXPECT_EQ(T.Shape[0]->Name, "n");
    EXPECT_EQ(T.Shape[1]->Name, "m");
  }
  EXPECT_NE(K.Params[2].Type.Shape[0].get(), K.Params[3].Type.Shape[0].get());
  EXPECT_EQ(P->text(K.Params[3].NameRange), "b");
  EXPECT_FALSE(K.Incomplete);
}

TEST(Parser, ArrayModesLayoutsAndZeroDimensionalArrays) {
  auto P = parse("kernel k(n: index; a: inout i64[n] layout(col_major),\n"
                 "         b: out f64[n, 2 * n] strides(1, n), r: out f32[]) "
                 "{}");
  ASSERT_EQ(P->Errors, 0u) << P->Err.str();
  const auto &Ps = P->M.Kernels.at(0).Params;
  ASSERT_EQ(Ps.size(), 4u);
  EXPECT_EQ(Ps[1].Type.Mode, ast::ArgMode::InOut);
  EXPECT_EQ(Ps[1].Type.DType, "i64");
  EXPECT_EQ(Ps[1].Type.Layout, ast::TypeSpec::Layout::ColMajor);
  EXPECT_EQ(P->text(Ps[1].Type.LayoutRange), "layout(col_major)");
  EXPECT_EQ(Ps[2].Type.Mode, ast::ArgMode::Out);
  EXPECT_EQ(Ps[2].Type.Layout, ast::TypeSpec::Layout::Strides);
  ASSERT_EQ(Ps[2].Type.Strides.size(), 2u);
  EXPECT_EQ(P->text(Ps[2].Type.Strides[1]->Range), "n");
  EXPECT_EQ(Ps[3].Type.K, TK::Array);
  EXPECT_TRUE(Ps[3].Type.Shape.empty());
}

TEST(Parser, ShapeExpressionsFollowPrecedence) {
  auto P = parse("kernel k(n, m: index; a: in f32[n + 2 * m, (n - 1) / 2]) {}");
  ASSERT_EQ(P->Errors, 0u) << P->Err.str();
  const auto &Shape = P->M.Kernels.at(0).Params.at(2).Type.Shape;
  ASSERT_EQ(Shape.size(), 2u);
  // n + (2 * m)
  const ast::Expr &Sum = *Shape[0];
  ASSERT_EQ(Sum.K, EK::Binary);
  EXPECT_EQ(Sum.Op, TokenKind::Plus);
  EXPECT_EQ(Sum.Args[0]->K, EK::Name);
  ASSERT_EQ(Sum.Args[1]->K, EK::Binary);
  EXPECT_EQ(Sum.Args[1]->Op, TokenKind::Star);
  EXPECT_EQ(P->text(Sum.Range), "n + 2 * m");
  EXPECT_EQ(P->text(Sum.OpRange), "+");
  // (n - 1) / 2: the parentheses group, and leave no node of their own.
  const ast::Expr &Div = *Shape[1];
  ASSERT_EQ(Div.K, EK::Binary);
  EXPECT_EQ(Div.Op, TokenKind::Slash);
  ASSERT_EQ(Div.Args[0]->K, EK::Binary);
  EXPECT_EQ(Div.Args[0]->Op, TokenKind::Minus);
  EXPECT_EQ(Div.Args[1]->K, EK::IntLit);
  EXPECT_EQ(Div.Args[1]->Name, "2");
}

TEST(Parser, BodyHoldsDomainAssumptionsAndStatements) {
  auto P = parse("kernel k(n, m: index; a: in f32[n, m], s: out f32[]) {\n"
                 "  assume n >= 1 and n mod 16 = 0;\n"
                 "  domain { [k, l] : 0 <= k < n and 0 <= l < m }\n"
                 "  s[] = sum((k, l), -a[k, l]);\n"
                 "}\n");
  ASSERT_EQ(P->Errors, 0u) << P->Err.str();
  const ast::KernelDecl &K = P->M.Kernels.at(0);
  ASSERT_EQ(K.Assumptions.size(), 1u);
  EXPECT_EQ(P->text(K.Assumptions[0]), "n >= 1 and n mod 16 = 0");
  EXPECT_EQ(P->text(K.Domain), "{ [k, l] : 0 <= k < n and 0 <= l < m }");
  EXPECT_EQ(P->text(K.DomainKeyword), "domain");
  ASSERT_EQ(K.Stmts.size(), 1u);
  const ast::Stmt &S = K.Stmts[0];
  EXPECT_EQ(S.Lhs->K, EK::Subscript);
  EXPECT_EQ(S.Lhs->Name, "s");
  EXPECT_TRUE(S.Lhs->Args.empty());
  // sum((k, l), -a[k, l]) is a call whose first argument is a tuple.
  const ast::Expr &Sum = *S.Rhs;
  ASSERT_EQ(Sum.K, EK::Call);
  EXPECT_EQ(Sum.Name, "sum");
  ASSERT_EQ(Sum.Args.size(), 2u);
  const ast::Expr &Indices = *Sum.Args[0];
  ASSERT_EQ(Indices.K, EK::Tuple);
  ASSERT_EQ(Indices.Args.size(), 2u);
  EXPECT_EQ(Indices.Args[0]->Name, "k");
  EXPECT_EQ(Indices.Args[1]->Name, "l");
  EXPECT_EQ(P->text(Indices.Range), "(k, l)");
  const ast::Expr &Neg = *Sum.Args[1];
  ASSERT_EQ(Neg.K, EK::Unary);
  EXPECT_EQ(Neg.Op, TokenKind::Minus);
  EXPECT_EQ(Neg.Args[0]->K, EK::Subscript);
  EXPECT_EQ(P->text(Neg.Args[0]->NameRange), "a");
  EXPECT_EQ(P->text(S.Range), "s[] = sum((k, l), -a[k, l]);");
}

TEST(Parser, RecoversAtTheNextStatement) {
  auto P = parse("kernel k(n: index; x: in f32[n], y: out f32[n]) {\n"
                 "  domain { [i] : 0 <= i < n }\n"
                 "  y[i] = x[i] +;\n"
                 "  y[i] = (x[i];\n"
                 "  y[i] = 2 * x[i];\n"
                 "}\n"
                 "kernel other(n: index; y: out f32[n]) {\n"
                 "  domain { [i] : 0 <= i < n }\n"
                 "  y[i] = 1;\n"
                 "}\n");
  EXPECT_EQ(P->Errors, 2u) << P->Err.str();
  ASSERT_EQ(P->M.Kernels.size(), 2u);
  // The broken statements are dropped, the good one after them is kept,
  // and the next kernel is parsed in full.
  ASSERT_EQ(P->M.Kernels[0].Stmts.size(), 1u);
  EXPECT_EQ(P->text(P->M.Kernels[0].Stmts[0].Range), "y[i] = 2 * x[i];");
  EXPECT_FALSE(P->M.Kernels[0].Incomplete);
  EXPECT_EQ(P->M.Kernels[1].Name, "other");
  EXPECT_EQ(P->M.Kernels[1].Stmts.size(), 1u);
  EXPECT_NE(P->Err.str().find("t.loop:3:16: error: expected an expression"),
            std::string::npos);
  EXPECT_NE(P->Err.str().find("t.loop:4:15: error: expected ',' or ')'"),
            std::string::npos);
}

TEST(Parser, BrokenParameterListMarksTheKernelIncomplete) {
  auto P = parse("kernel k(n: index; x: in f32, y: out f32[n]) {\n"
                 "  domain { [i] : 0 <= i < n }\n"
                 "  y[i] = x[i];\n"
                 "}\n");
  EXPECT_EQ(P->Errors, 1u) << P->Err.str();
  const ast::KernelDecl &K = P->M.Kernels.at(0);
  EXPECT_TRUE(K.Incomplete);
  // Parsing resumed at the ',' after the broken group: y is declared.
  ASSERT_EQ(K.Params.size(), 2u);
  EXPECT_EQ(K.Params[0].Name, "n");
  EXPECT_EQ(K.Params[1].Name, "y");
  EXPECT_EQ(K.Stmts.size(), 1u);
}

TEST(Parser, ForgottenDomainBraceStopsAtTheStatement) {
  auto P = parse("kernel k(n: index; x: in f32[n], y: out f32[n]) {\n"
                 "  domain { [i] : 0 <= i < n\n"
                 "  y[i] = x[i];\n"
                 "}\n");
  EXPECT_EQ(P->Errors, 1u) << P->Err.str();
  const ast::KernelDecl &K = P->M.Kernels.at(0);
  EXPECT_TRUE(K.Incomplete);
  EXPECT_FALSE(K.Domain.isValid());
  ASSERT_EQ(K.Stmts.size(), 1u);
  EXPECT_EQ(P->text(K.Stmts[0].Range), "y[i] = x[i];");
}

} // namespace
