//===- TunerKernelHashTest.cpp - Unit tests of the kernel hash ------------===//
//
// The hash ignores how the source is laid out and what -D fixes, and changes
// with anything that changes the kernel.
//
//===----------------------------------------------------------------------===//
#include "loopy/Compile/Compile.h"
#include "loopy/Frontend/Parser.h"
#include "loopy/Sema/Sema.h"
#include "loopy/Support/Isl.h"
#include "loopy/Tuner/KernelHash.h"
#include "loopy/Tuner/Tuner.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

using namespace loopy;

namespace {

/// A parsed .loop text and what building its kernels needs.
struct Parsed {
  IslContext Isl;
  std::string Text;
  SourceManager SM;
  std::ostringstream Err;
  DiagnosticEngine Diags;
  ast::Module M;

  explicit Parsed(const std::string &Text)
      : Text(Text), SM("t.loop", Text), Diags(&SM, Err),
        M(parseModule(SM, Diags)) {}

  std::vector<Kernel> build(std::map<std::string, long> Defines = {}) {
    SemaOptions Opts;
    Opts.Defines = std::move(Defines);
    return buildKernels(M, Isl.get(), SM, Diags, Opts);
  }
  /// The hash of every kernel as the tuner takes it: checked through the
  /// compile entry with \p Defines, hashed without them. Throws
  /// std::runtime_error with the diagnostics if the text does not check.
  std::map<std::string, std::string>
  hashes(std::map<std::string, long> Defines = {}) {
    auto Source = std::make_shared<SourceManager>("t.loop", Text);
    std::ostringstream Messages;
    DiagnosticEngine D(Source.get(), Messages);
    CheckOptions Opts;
    Opts.Defines = std::move(Defines);
    auto Checked = checkSource(Source, Opts, D);
    if (!Checked)
      throw std::runtime_error(Messages.str());
    std::map<std::string, std::string> Hashes;
    for (size_t KI = 0; KI < (*Checked)->kernels().size(); ++KI) {
      auto K = (*Checked)->parametricKernel(KI);
      if (!K)
        throw std::runtime_error(K.failure().Message);
      Hashes[(*K)->Name] = kernelHash(**K);
    }
    return Hashes;
  }
};

/// The hash of the only kernel of \p Text.
std::string hashOf(const std::string &Text) {
  Parsed P(Text);
  EXPECT_FALSE(P.Diags.hasErrors()) << P.Err.str();
  auto Hashes = P.hashes();
  EXPECT_EQ(Hashes.size(), 1u);
  return Hashes.empty() ? "" : Hashes.begin()->second;
}

const char *Matmul = R"(
kernel matmul(n, m, l: index;
              a: in f32[n, l], b: in f32[l, m], c: out f32[n, m]) {
  assume n >= 1;
  domain { [i, j, k] : 0 <= i < n and 0 <= j < m and 0 <= k < l }
  c[i, j] = sum(k, a[i, k] * b[k, j] + 1.5);
}
)";

/// Matmul with other white space, line breaks and comments everywhere,
/// inside the isl text too.
const char *MatmulReformatted = R"(# C = A*B
kernel   matmul( n,m,l : index ;   # sizes
  a : in f32 [ n , l ],
  b: in f32[l,m],   c: out f32[n,m] )
{
  assume n>=1;
  domain {[i,j,k]:   # the iteration space
          0<=i<n and 0<=j<m and 0<=k<l}
  c[ i,j ] = sum( k,
                  a[i,k]*b[ k , j ]   # product
                  + 1.5 );
}
)";

TEST(KernelHash, IgnoresWhiteSpaceAndComments) {
  std::string H = hashOf(Matmul);
  EXPECT_EQ(H.size(), 64u);
  EXPECT_EQ(hashOf(MatmulReformatted), H);
}

/// Matmul with every \p From replaced by \p To (\p From must occur).
std::string edited(const std::string &From, const std::string &To) {
  std::string S = Matmul;
  EXPECT_NE(S.find(From), std::string::npos) << From;
  for (size_t Pos = S.find(From); Pos != std::string::npos;
       Pos = S.find(From, Pos + To.size()))
    S.replace(Pos, From.size(), To);
  return S;
}

TEST(KernelHash, ChangesWithTheKernel) {
  std::string H = hashOf(Matmul);
  const std::pair<const char *, const char *> Edits[] = {
      {"b[k, j]", "b[k, j - j]"},     // a subscript
      {"a[i, k]", "a[i, l - 1 - k]"}, // a subscript
      {"kernel matmul", "kernel matmul2"},
      {"f32", "f64"},
      {"c: out", "c: inout"},
      {"b: in f32[l, m]", "b: in f32[l, m] layout(col_major)"},
      {"assume n >= 1;", "assume n >= 2;"},
      {"0 <= k < l", "0 <= k < l - 1"},
      {"sum(k,", "max(k,"},
      {"1.5", "2.5"},
      {"a[i, k] * b[k, j]", "b[k, j] * a[i, k]"},
  };
  for (auto [From, To] : Edits)
    EXPECT_NE(hashOf(edited(From, To)), H) << From << " -> " << To;
}

TEST(KernelHash, IgnoresFixedValues) {
  Parsed P(Matmul);
  std::vector<Kernel> Fixed = P.build({{"n", 64}, {"m", 32}});
  ASSERT_EQ(Fixed.size(), 1u) << P.Err.str();
  // The folded sets cannot give the parametric kernel's hash: refuse.
  try {
    kernelHash(Fixed[0]);
    FAIL() << "a kernel with fixed values was hashed";
  } catch (std::invalid_argument &E) {
    EXPECT_NE(std::string(E.what()).find("m=32,n=64"), std::string::npos)
        << E.what();
  }
  EXPECT_EQ(P.hashes().at("matmul"), hashOf(Matmul));
  // The compile entry hands the tuner the kernel built without them.
  EXPECT_EQ(P.hashes({{"n", 64}, {"m", 32}}).at("matmul"), hashOf(Matmul));
}

TEST(KernelHash, CanonicalTextHasNoSourceSpelling) {
  Parsed P(MatmulReformatted);
  std::vector<Kernel> Ks = P.build();
  ASSERT_EQ(Ks.size(), 1u) << P.Err.str();
  std::string Text = canonicalKernelText(Ks[0]);
  EXPECT_EQ(Text.find('#'), std::string::npos) << Text;
  EXPECT_EQ(Text.find("b[ k"), std::string::npos) << Text;
  EXPECT_NE(Text.find("-> b[k, j]"), std::string::npos) << Text;
}

TEST(KernelHash, OneHashPerKernel) {
  Parsed P(std::string(Matmul) + edited("kernel matmul", "kernel mm"));
  auto Hashes = P.hashes();
  ASSERT_EQ(Hashes.size(), 2u);
  EXPECT_EQ(Hashes.at("matmul"), hashOf(Matmul));
  EXPECT_NE(Hashes.at("mm"), Hashes.at("matmul"));
}

TEST(KernelHash, ErrorsWithoutDefinesAreReported) {
  Parsed P(edited("a[i, k] *", "a[i, q] *"));
  try {
    P.hashes();
    FAIL() << "a kernel with an error was hashed";
  } catch (std::runtime_error &E) {
    EXPECT_NE(std::string(E.what()).find("'q'"), std::string::npos)
        << E.what();
  }
}

TEST(KernelHash, ExamplesKeepTheirHash) {
  // The tuning database finds earlier results by these: a change of the
  // canonical text, or of what the compile entry hands the hash, loses them.
  // Fixed values do not enter the hash.
  std::ifstream In(std::string(LOOPY_EXAMPLES_DIR) + "/matmul.loop");
  std::stringstream Text;
  Text << In.rdbuf();
  Parsed P(Text.str());
  const char *Expected =
      "93f9804b7de2e6758898b9dd6033861cd76e34e061893d21d2692ab9c2baabd6";
  EXPECT_EQ(P.hashes().at("matmul"), Expected);
  EXPECT_EQ(P.hashes({{"n", 4096}, {"l", 64}}).at("matmul"), Expected);
}

TEST(KernelHash, FixedParamsText) {
  EXPECT_EQ(fixedParamsText({}), "");
  EXPECT_EQ(fixedParamsText({{"n", 4096}, {"m", 4096}, {"k", -1}}),
            "k=-1,m=4096,n=4096");
}

TEST(TuningKey, SharedLimitFromTheDevice) {
  // Tuning plans with what the GPU lets a block opt in to, where asked,
  // and the key says which limit the search had.
  gpu::DeviceInfo Dev;
  Dev.SharedPerBlockOptin = 232448;
  TuneOptions Opts;
  EXPECT_EQ(plannerFor(Opts, Dev).MaxSharedBytes, 48 * 1024);
  Opts.SharedFromDevice = true;
  EXPECT_EQ(plannerFor(Opts, Dev).MaxSharedBytes, 232448);
  EXPECT_NE(plannerOptionsText(plannerFor(Opts, Dev))
                .find(",max_shared=232448,"),
            std::string::npos);
  // A device that does not say keeps the option's limit.
  Dev.SharedPerBlockOptin = 0;
  EXPECT_EQ(plannerFor(Opts, Dev).MaxSharedBytes, 48 * 1024);
}

TEST(TuningKey, Tf32IsAnotherSearch) {
  // The space with tf32 products is another search than the one without,
  // and the text of the key without it is what it always was.
  PlannerOptions Opts;
  std::string Without = plannerOptionsText(Opts);
  EXPECT_EQ(Without.find("tf32"), std::string::npos);
  Opts.AllowTf32 = true;
  EXPECT_EQ(plannerOptionsText(Opts), Without + ",tf32");
}

} // namespace
