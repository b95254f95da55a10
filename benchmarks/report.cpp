//===- report.cpp - loopy-bench's table, JSON and chart -------------------===//
#include "report.h"

#include "loopy/Driver/Json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace bench {

namespace {

std::string fmt(const char *F, double V) {
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, F, V);
  return Buf;
}

/// The suites of \p Rows, in order of first appearance.
std::vector<std::string> suites(const std::vector<Row> &Rows) {
  std::vector<std::string> S;
  for (const Row &R : Rows)
    if (std::find(S.begin(), S.end(), R.Suite) == S.end())
      S.push_back(R.Suite);
  return S;
}

} // namespace

std::string tableLine(const Row &R, double Copy) {
  auto Rate = [&](double V) { return R.Loopy > 0 ? V / R.Loopy : 0; };
  char Buf[512];
  std::snprintf(Buf, sizeof Buf,
                "%-22s %-15s loopy %9.4f ms  %s %9.4f ms  ratio %5.2f  "
                "%8.1f GFLOP/s %7.1f GB/s (%3.0f%% of copy)  tuned in %.1f s",
                R.Name.c_str(), R.Size.c_str(), R.Loopy * 1e3,
                R.Reference.c_str(), R.Ref * 1e3, R.Loopy > 0 ? R.Ref / R.Loopy : 0,
                Rate(R.Flops) / 1e9, Rate(R.Bytes) / 1e9,
                100 * Rate(R.Bytes) / Copy, R.TuningSeconds);
  std::string S = Buf;
  if (R.FromDatabase)
    S += fmt(" (read from the database in %.3f s)", R.LookupSeconds);
  if (R.ExhaustiveBest > 0 && R.SearchBest > 0)
    S += fmt("; the search's winner at %.2f of the wider search's speed",
             R.ExhaustiveBest / R.SearchBest);
  if (!R.Ok)
    S += "  WRONG: " + R.Error;
  return S;
}

double geometricMean(const std::vector<Row> &Rows, const std::string &Suite,
                     size_t &Count) {
  double LogSum = 0;
  Count = 0;
  for (const Row &R : Rows)
    if (R.Suite == Suite && R.ratio() > 0) {
      LogSum += std::log(R.ratio());
      ++Count;
    }
  return Count ? std::exp(LogSum / Count) : 0;
}

std::string summary(const std::vector<Row> &Rows) {
  std::string S;
  for (const std::string &Suite : suites(Rows)) {
    size_t Count = 0, Below = 0, Wrong = 0;
    double G = geometricMean(Rows, Suite, Count);
    for (const Row &R : Rows)
      if (R.Suite == Suite) {
        Wrong += !R.Ok;
        Below += R.Ok && R.ratio() < 0.8;
      }
    S += Suite + ": geometric mean of the ratios " + fmt("%.2f", G) + " over " +
         std::to_string(Count) + " rows; " + std::to_string(Below) +
         " below 0.8; " + std::to_string(Wrong) + " wrong or failed\n";
  }
  return S;
}

void writeJson(const std::string &Path, const std::vector<Row> &Rows,
               const RunInfo &Info) {
  loopy::Json Results = loopy::Json::array();
  for (const Row &R : Rows) {
    auto Rate = [&](double V) { return R.Loopy > 0 ? V / R.Loopy : 0; };
    Results.push_back(loopy::Json{
        {"kernel", R.Name},
        {"size", R.Size},
        {"reference", R.Reference},
        {"loopy_ms", R.Loopy * 1e3},
        {"reference_ms", R.Ref * 1e3},
        {"ratio", Rate(R.Ref)},
        {"gflops", Rate(R.Flops) / 1e9},
        {"gbs", Rate(R.Bytes) / 1e9},
        {"copy_fraction", Rate(R.Bytes) / Info.CopyBandwidth},
        {"tuning_s", R.TuningSeconds},
        {"this_run_tune_call_s", R.LookupSeconds},
        {"db_read_s", R.FromDatabase ? loopy::Json(R.LookupSeconds) : loopy::Json()},
        {"search_ms", R.SearchBest * 1e3},
        {"exhaustive_ms",
         R.ExhaustiveBest > 0 ? loopy::Json(R.ExhaustiveBest * 1e3) : loopy::Json()},
        {"from_database", R.FromDatabase},
        {"max_error", std::isfinite(R.MaxError) ? R.MaxError : -1},
        {"ok", R.Ok},
        {"schedule", R.Schedule},
        {"suite", R.Suite},
        {"kernels", R.Kernels},
        {"flops", R.Flops},
        {"bytes", R.Bytes},
        {"error", R.Error}});
  }
  loopy::Json Means = loopy::Json::object();
  for (const std::string &Suite : suites(Rows)) {
    size_t Count = 0;
    double G = geometricMean(Rows, Suite, Count);
    Means[Suite] = loopy::Json{{"geomean_ratio", G}, {"rows", Count}};
  }
  loopy::Json Doc{{"device", Info.Device},
                  {"date", Info.Date},
                  {"commit", Info.Commit},
                  {"copy_bandwidth_gbs", Info.CopyBandwidth / 1e9},
                  {"sgemm_gflops", Info.SgemmRate / 1e9},
                  {"suites", std::move(Means)},
                  {"results", std::move(Results)}};
  std::ofstream J(Path);
  J << loopy::printJson(Doc) << "\n";
}

std::vector<Row> readJson(const std::string &Path, RunInfo &Info) {
  std::ifstream In(Path);
  if (!In)
    throw std::runtime_error("cannot read " + Path);
  std::vector<Row> Rows;
  try {
    loopy::Json Doc = loopy::Json::parse(In);
    Info.Device = Doc.at("device").get<std::string>();
    Info.Date = Doc.at("date").get<std::string>();
    Info.Commit = Doc.at("commit").get<std::string>();
    Info.CopyBandwidth = Doc.at("copy_bandwidth_gbs").get<double>() * 1e9;
    Info.SgemmRate = Doc.at("sgemm_gflops").get<double>() * 1e9;
    for (const loopy::Json &J : Doc.at("results")) {
      Row R;
      R.Name = J.at("kernel").get<std::string>();
      R.Size = J.at("size").get<std::string>();
      R.Reference = J.at("reference").get<std::string>();
      R.Loopy = J.at("loopy_ms").get<double>() / 1e3;
      R.Ref = J.at("reference_ms").get<double>() / 1e3;
      R.TuningSeconds = J.at("tuning_s").get<double>();
      R.LookupSeconds = J.at("this_run_tune_call_s").get<double>();
      // Older results have neither.
      if (J.contains("search_ms"))
        R.SearchBest = J.at("search_ms").get<double>() / 1e3;
      if (J.contains("exhaustive_ms") && !J.at("exhaustive_ms").is_null())
        R.ExhaustiveBest = J.at("exhaustive_ms").get<double>() / 1e3;
      R.FromDatabase = J.at("from_database").get<bool>();
      double E = J.at("max_error").get<double>();
      R.MaxError = E < 0 ? INFINITY : E;
      R.Ok = J.at("ok").get<bool>();
      R.Schedule = J.at("schedule").get<std::string>();
      R.Suite = J.at("suite").get<std::string>();
      R.Kernels = J.at("kernels").get<std::vector<std::string>>();
      R.Flops = J.at("flops").get<double>();
      R.Bytes = J.at("bytes").get<double>();
      R.Error = J.at("error").get<std::string>();
      Rows.push_back(std::move(R));
    }
  } catch (const loopy::Json::exception &E) {
    throw std::runtime_error(Path + " is not a results.json of loopy-bench: " +
                             E.what());
  }
  return Rows;
}

void writeSvg(const std::string &Path, const std::vector<Row> &Rows,
              const RunInfo &Info) {
  std::vector<std::string> Suites = suites(Rows);
  const int BarH = 22, Left = 430, Width = 420, Top = 50;
  int Bottom = Top + BarH * int(Rows.size());
  int H = Bottom + 20 * int(Suites.size()) + 30;
  double Max = 1.2;
  for (const Row &R : Rows)
    Max = std::max(Max, R.ratio() * 1.1);
  std::ofstream OS(Path);
  OS << "<svg xmlns='http://www.w3.org/2000/svg' width='" << Left + Width + 80
     << "' height='" << H << "' font-family='sans-serif' font-size='12'>\n"
     << "<rect width='100%' height='100%' fill='white'/>\n"
     << "<text x='10' y='20' font-size='14'>loopy vs cuBLAS and the roofline on "
     << Info.Device << ", " << Info.Date << ", commit " << Info.Commit
     << "</text>\n"
     << "<text x='10' y='38'>speed relative to the reference in the same run "
        "(reference time / loopy time; right of the line: loopy faster)</text>\n";
  for (size_t I = 0; I < Rows.size(); ++I) {
    const Row &R = Rows[I];
    int Y = Top + BarH * int(I);
    double Ratio = R.ratio();
    int W = int(Width * Ratio / Max);
    OS << "<text x='" << Left - 6 << "' y='" << Y + 15
       << "' text-anchor='end'>" << R.Name << " " << R.Size << " vs "
       << R.Reference << "</text>\n"
       << "<rect x='" << Left << "' y='" << Y + 3 << "' width='" << W
       << "' height='" << BarH - 6 << "' fill='"
       << (Ratio >= 1 ? "#2a7" : Ratio >= 0.8 ? "#e90" : "#c33") << "'/>\n"
       << "<text x='" << Left + W + 4 << "' y='" << Y + 15 << "'>"
       << (R.Ok ? fmt("%.2f", Ratio) : "wrong") << "</text>\n";
  }
  int X1 = Left + int(Width / Max);
  OS << "<line x1='" << X1 << "' y1='" << Top - 4 << "' x2='" << X1
     << "' y2='" << Bottom << "' stroke='black' stroke-dasharray='4,3'/>\n";
  for (size_t I = 0; I < Suites.size(); ++I) {
    size_t Count = 0;
    double G = geometricMean(Rows, Suites[I], Count);
    OS << "<text x='10' y='" << Bottom + 20 + 20 * int(I) << "'>" << Suites[I]
       << ": geometric mean of the ratios " << fmt("%.2f", G) << " over "
       << Count << " rows</text>\n";
  }
  OS << "</svg>\n";
}

} // namespace bench
