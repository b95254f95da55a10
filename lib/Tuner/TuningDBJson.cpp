//===- TuningDBJson.cpp - Tuning database rows as JSON --------------------===//
//
// The exchange format of --db-export and --db-merge: one JSON document with
// every row of a tuning database, so that machines that tuned different
// kernels or sizes pool their results. Reading checks every field before
// anything is written, and says where the document is wrong.
//
//===----------------------------------------------------------------------===//
#include "loopy/Tuner/TuningDB.h"

#include "loopy/Support/Diagnostics.h"
#include "loopy/Support/Hash.h"

#include <nlohmann/json.hpp>

#include <array>

namespace loopy {

using Json = nlohmann::ordered_json;

namespace {

constexpr const char *Format = "loopy-tuning-db";
constexpr int Version = 1;

const char Base64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string encodeBase64(const std::string &In) {
  std::string Out;
  Out.reserve((In.size() + 2) / 3 * 4);
  for (size_t I = 0; I < In.size(); I += 3) {
    uint32_t V = uint32_t(static_cast<unsigned char>(In[I])) << 16;
    if (I + 1 < In.size())
      V |= uint32_t(static_cast<unsigned char>(In[I + 1])) << 8;
    if (I + 2 < In.size())
      V |= static_cast<unsigned char>(In[I + 2]);
    Out += Base64[V >> 18 & 63];
    Out += Base64[V >> 12 & 63];
    Out += I + 1 < In.size() ? Base64[V >> 6 & 63] : '=';
    Out += I + 2 < In.size() ? Base64[V & 63] : '=';
  }
  return Out;
}

/// \p In decoded; nothing where it is not base64.
std::optional<std::string> decodeBase64(const std::string &In) {
  if (In.size() % 4)
    return std::nullopt;
  std::array<int, 256> Value;
  Value.fill(-1);
  for (int I = 0; I < 64; ++I)
    Value[static_cast<unsigned char>(Base64[I])] = I;
  std::string Out;
  for (size_t I = 0; I < In.size(); I += 4) {
    uint32_t V = 0;
    int Pad = 0;
    for (size_t J = 0; J < 4; ++J) {
      char C = In[I + J];
      if (C == '=' && I + 4 == In.size() && J >= 2) {
        ++Pad;
        V <<= 6;
        continue;
      }
      int D = Value[static_cast<unsigned char>(C)];
      if (D < 0 || Pad)
        return std::nullopt;
      V = V << 6 | D;
    }
    Out += char(V >> 16 & 255);
    if (Pad < 2)
      Out += char(V >> 8 & 255);
    if (Pad < 1)
      Out += char(V & 255);
  }
  return Out;
}

std::string codeHashOf(const TuningRecord &R) {
  std::string Text;
  for (const std::string *Part : {&R.Cubin, &R.Launches})
    Text += std::to_string(Part->size()) + ":" + *Part;
  return sha256Hex(Text);
}

/// Reads one document, throwing TuningDBError at the place it is wrong.
class RowReader {
public:
  explicit RowReader(std::string Name) : Name(std::move(Name)) {}

  [[noreturn]] void fail(const std::string &Where, const std::string &What) {
    throw TuningDBError(Name + ": " + Where + ": " + What +
                        "; the tuning database was not changed");
  }

  const Json &field(const Json &Obj, const std::string &Where,
                    const char *Key) {
    auto It = Obj.find(Key);
    if (It == Obj.end())
      fail(Where, "missing field " + quote(Key));
    return *It;
  }
  std::string text(const Json &Obj, const std::string &Where,
                   const char *Key) {
    const Json &V = field(Obj, Where, Key);
    if (!V.is_string())
      fail(Where + "." + Key, "expected a string, not " + V.dump());
    return V.get<std::string>();
  }
  double number(const Json &Obj, const std::string &Where, const char *Key,
                bool Positive = false) {
    const Json &V = field(Obj, Where, Key);
    if (!V.is_number())
      fail(Where + "." + Key, "expected a number, not " + V.dump());
    double D = V.get<double>();
    if (!(D >= 0) || (Positive && !(D > 0)))
      fail(Where + "." + Key, std::string("expected a ") +
                                  (Positive ? "positive" : "non-negative") +
                                  " number, not " + V.dump());
    return D;
  }
  int64_t integer(const Json &Obj, const std::string &Where, const char *Key) {
    const Json &V = field(Obj, Where, Key);
    if (!V.is_number_integer())
      fail(Where + "." + Key, "expected an integer, not " + V.dump());
    return V.get<int64_t>();
  }

  TuningDB::Row row(const Json &J, const std::string &Where) {
    if (!J.is_object())
      fail(Where, "expected an object, not " + J.dump().substr(0, 40));
    TuningDB::Row R;
    TuningKey &K = R.Key;
    K.KernelHash = text(J, Where, "kernel_hash");
    K.FixedParams = text(J, Where, "fixed_params");
    K.Device = text(J, Where, "device");
    K.ComputeCapability = text(J, Where, "compute_capability");
    K.DriverVersion = text(J, Where, "driver_version");
    K.NvrtcVersion = text(J, Where, "nvrtc_version");
    K.PlannerOptions = text(J, Where, "planner_options");
    if (K.KernelHash.empty() || K.Device.empty())
      fail(Where, "empty kernel_hash or device");
    TuningRecord &Rec = R.Record;
    Rec.Schedule = text(J, Where, "schedule");
    Rec.CudaSource = text(J, Where, "cuda_source");
    Rec.MedianSeconds = number(J, Where, "median_seconds", true);
    Rec.GFlops = number(J, Where, "gflops");
    Rec.GBytesPerSecond = number(J, Where, "gbytes_per_second");
    Rec.VariantsTimed = integer(J, Where, "variants_timed");
    Rec.TuningSeconds = number(J, Where, "tuning_seconds");
    Rec.Timestamp = integer(J, Where, "created_at");
    Rec.LoopycVersion = text(J, Where, "loopyc_version");
    if (Rec.Schedule.empty())
      fail(Where + ".schedule", "empty");
    const Json &Cubin = field(J, Where, "cubin_base64");
    const Json &Launches = field(J, Where, "launches");
    const Json &Hash = field(J, Where, "code_sha256");
    if (!Cubin.is_null() || !Launches.is_null() || !Hash.is_null()) {
      if (!Cubin.is_string() || !Launches.is_string() || !Hash.is_string())
        fail(Where, "cubin_base64, launches and code_sha256 must be strings "
                    "together, or null together");
      auto Bytes = decodeBase64(Cubin.get<std::string>());
      if (!Bytes)
        fail(Where + ".cubin_base64", "not base64");
      Rec.Cubin = std::move(*Bytes);
      Rec.Launches = Launches.get<std::string>();
      if (codeHashOf(Rec) != Hash.get<std::string>())
        fail(Where, "the compiled code does not match code_sha256");
    }
    const Json &Vs = field(J, Where, "variants");
    if (!Vs.is_array())
      fail(Where + ".variants", "expected an array");
    for (size_t I = 0; I < Vs.size(); ++I) {
      std::string At = Where + ".variants[" + std::to_string(I) + "]";
      const Json &V = Vs[I];
      if (!V.is_object())
        fail(At, "expected an object");
      VariantResult VR;
      VR.Schedule = text(V, At, "schedule");
      std::string Status = text(V, At, "status");
      bool Known = false;
      for (VariantStatus S : {VariantStatus::Ok, VariantStatus::Wrong,
                              VariantStatus::Failed, VariantStatus::Dropped})
        if (Status == variantStatusName(S)) {
          VR.Status = S;
          Known = true;
        }
      if (!Known)
        fail(At + ".status", "unknown status " + quote(Status) +
                                 "; expected ok, wrong, failed or dropped");
      VR.Reason = text(V, At, "reason");
      if (!field(V, At, "seconds").is_null())
        VR.Seconds = number(V, At, "seconds");
      // Optional: documents written before variants had features.
      if (V.contains("features"))
        VR.Features = text(V, At, "features");
      R.Variants.push_back(std::move(VR));
    }
    return R;
  }

private:
  std::string Name;
};

} // namespace

std::string exportTuningRows(TuningDB &Db) {
  Json Rows = Json::array();
  for (const TuningDB::Row &R : Db.rows()) {
    const TuningKey &K = R.Key;
    const TuningRecord &Rec = R.Record;
    Json Variants = Json::array();
    for (const VariantResult &V : R.Variants) {
      Json Obj = {{"schedule", V.Schedule},
                  {"status", variantStatusName(V.Status)},
                  {"reason", V.Reason},
                  {"seconds", V.Seconds ? Json(*V.Seconds) : Json()}};
      if (!V.Features.empty())
        Obj["features"] = V.Features;
      Variants.push_back(std::move(Obj));
    }
    bool Code = Rec.hasCode();
    Rows.push_back({{"kernel_hash", K.KernelHash},
                    {"fixed_params", K.FixedParams},
                    {"device", K.Device},
                    {"compute_capability", K.ComputeCapability},
                    {"driver_version", K.DriverVersion},
                    {"nvrtc_version", K.NvrtcVersion},
                    {"planner_options", K.PlannerOptions},
                    {"schedule", Rec.Schedule},
                    {"cuda_source", Rec.CudaSource},
                    {"median_seconds", Rec.MedianSeconds},
                    {"gflops", Rec.GFlops},
                    {"gbytes_per_second", Rec.GBytesPerSecond},
                    {"variants_timed", Rec.VariantsTimed},
                    {"tuning_seconds", Rec.TuningSeconds},
                    {"created_at", Rec.Timestamp},
                    {"loopyc_version", Rec.LoopycVersion},
                    {"cubin_base64", Code ? Json(encodeBase64(Rec.Cubin)) : Json()},
                    {"launches", Code ? Json(Rec.Launches) : Json()},
                    {"code_sha256", Code ? Json(codeHashOf(Rec)) : Json()},
                    {"variants", std::move(Variants)}});
  }
  return Json{{"format", Format}, {"version", Version}, {"rows", std::move(Rows)}}
             .dump(1) +
         "\n";
}

std::vector<TuningDB::Row> parseTuningRows(const std::string &Text,
                                           const std::string &Name) {
  Json J;
  try {
    J = Json::parse(Text);
  } catch (nlohmann::json::parse_error &E) {
    // The line and column of the byte where parsing stopped.
    size_t Byte = std::min<size_t>(E.byte ? E.byte - 1 : 0, Text.size());
    size_t Line = 1, Col = 1;
    for (size_t I = 0; I < Byte; ++I) {
      if (Text[I] == '\n') {
        ++Line;
        Col = 1;
      } else {
        ++Col;
      }
    }
    // nlohmann's message, without its own prefix and position.
    std::string What = E.what();
    if (auto P = What.find("column "); P != std::string::npos)
      if (auto Colon = What.find(": ", P); Colon != std::string::npos)
        What = What.substr(Colon + 2);
    throw TuningDBError(Name + ":" + std::to_string(Line) + ":" +
                        std::to_string(Col) + ": malformed JSON: " + What +
                        "; the tuning database was not changed");
  }
  RowReader Reader(Name);
  if (!J.is_object() || !J.contains("format") || J["format"] != Format)
    Reader.fail("format", std::string("not a tuning database export (expected "
                                      "\"format\": \"") +
                              Format + "\", as loopyc --db-export writes)");
  if (!J.contains("version") || J["version"] != Version)
    Reader.fail("version", "version " + (J.contains("version") ? J["version"].dump() : std::string("missing")) +
                               ", but this loopyc reads version " +
                               std::to_string(Version));
  const Json &Rows = Reader.field(J, "document", "rows");
  if (!Rows.is_array())
    Reader.fail("rows", "expected an array");
  std::vector<TuningDB::Row> Out;
  for (size_t I = 0; I < Rows.size(); ++I)
    Out.push_back(Reader.row(Rows[I], "rows[" + std::to_string(I) + "]"));
  return Out;
}

} // namespace loopy
