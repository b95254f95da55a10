//===- HashTest.cpp - Unit tests of SHA-256 -------------------------------===//
//
// The test vectors of FIPS 180-2, appendix B, messages at the lengths where
// the padding changes shape, and incremental hashing split at every point.
//
//===----------------------------------------------------------------------===//
#include "loopy/Support/Hash.h"

#include <gtest/gtest.h>

using namespace loopy;

namespace {

TEST(Sha256, OneBlockMessage) {
  EXPECT_EQ(sha256Hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Sha256, EmptyMessage) {
  EXPECT_EQ(sha256Hex(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Sha256, MultiBlockMessage) {
  // 448 bits: the padding no longer fits the block and needs a second one.
  EXPECT_EQ(
      sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Sha256, LongMessage) {
  EXPECT_EQ(sha256Hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, PaddingBoundaries) {
  // Messages of 'a' around the lengths where the padding changes shape.
  const std::pair<size_t, const char *> Vectors[] = {
      {55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},
      {56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"},
      {63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"},
      {64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"},
      {65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"},
      {119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"},
      {120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"},
  };
  for (auto [Len, Expected] : Vectors)
    EXPECT_EQ(sha256Hex(std::string(Len, 'a')), Expected) << "length " << Len;
}

TEST(Sha256, IncrementalEqualsOneShot) {
  std::string Message;
  for (int I = 0; I < 200; ++I)
    Message += static_cast<char>(I * 37 + 11);
  for (size_t Len : {55u, 56u, 63u, 64u, 65u, 119u, 120u, 128u, 200u}) {
    std::string_view M(Message.data(), Len);
    std::string Expected = sha256Hex(M);
    for (size_t Split = 0; Split <= Len; ++Split) {
      Sha256 H;
      H.update(M.substr(0, Split));
      H.update(M.substr(Split));
      ASSERT_EQ(toHex(H.digest()), Expected)
          << "length " << Len << ", split at " << Split;
    }
  }
}

TEST(Sha256, HexOfBytes) {
  EXPECT_EQ(toHex(std::string("\x00\x0f\xa5\xff", 4)), "000fa5ff");
}

} // namespace
