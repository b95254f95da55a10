//===- loopyc.cpp - The loopyc command-line driver ------------------------===//
//
// Parses options, hands over to loopy::runCompiler and turns its result
// into the exit status: 0 success, 1 a user error, 2 an internal error.
//
//===----------------------------------------------------------------------===//
#include "GitCommit.h"
#include "RunExtractor.h"
#include "loopy/Driver/Driver.h"
#include "loopy/Driver/Emit.h"
#include "loopy/Support/Diagnostics.h"

#include <cxxopts.hpp>

#include <charconv>
#include <exception>
#include <iostream>
#include <new>
#include <optional>

namespace {

/// "n=1024" -> {"n", 1024}; false if malformed.
bool parseDefine(const std::string &S, std::pair<std::string, long> &Out) {
  size_t Eq = S.find('=');
  if (Eq == std::string::npos || Eq == 0)
    return false;
  std::string Name = S.substr(0, Eq);
  for (char C : Name)
    if (!(std::isalnum(static_cast<unsigned char>(C)) || C == '_'))
      return false;
  const char *B = S.data() + Eq + 1, *E = S.data() + S.size();
  long V = 0;
  auto [Ptr, Ec] = std::from_chars(B, E, V);
  if (Ec != std::errc() || Ptr != E || B == E)
    return false;
  Out = {Name, V};
  return true;
}

/// Reports \p F where it was not reported yet, and gives the exit status
/// for it: 1 for the user's error, 2 for loopyc's own.
int exitStatus(const loopy::Failure &F) {
  if (!F.Message.empty())
    std::cerr << "loopyc: " << (F.isInternal() ? "internal error: " : "error: ")
              << F.Message << "\n";
  return F.isInternal() ? 2 : 1;
}

/// The first option of \p R that does nothing with the others given (or
/// that contradicts one), as an error message; nullopt if there is none.
/// \p Opts holds the mode: Emit (Best where --emit is not given),
/// CheckNvrtc, CheckOpenCL and Tune.
std::optional<std::string> idleOption(const cxxopts::ParseResult &R,
                                      const loopy::CompileOptions &Opts) {
  using loopy::EmitKind;
  bool Check = Opts.CheckNvrtc || Opts.CheckOpenCL;
  bool Runs = Opts.Tune || Opts.CheckOpenCL;
  std::string Emit =
      R.count("emit") ? "--emit=" + R["emit"].as<std::string>() : "";
  bool Variant = R.count("variant"), All = R.count("all-variants");
  if (Opts.Tune && Check)
    return "--tune and --check exclude each other";
  if (Opts.Tune && !Emit.empty() && Opts.Emit != EmitKind::CUDA)
    return "--tune prints the winner's CUDA source; " + Emit +
           " cannot go with it";
  if (Opts.Tune && All)
    return "--tune chooses the variant; --all-variants cannot go with it "
           "(--variant=SCHEDULE times that one variant)";
  if (Variant && All)
    return "--all-variants and --variant exclude each other";
  if (Opts.Tune && Variant)
    for (const char *Search : {"budget", "exhaustive", "search",
                               "occupancy-tries", "gpus"})
      if (R.count(Search))
        return std::string("--variant with --tune times that one variant; "
                           "--") +
               Search + " cannot go with it";
  if (Check && !Emit.empty())
    return "--check prints a report of the variants it ran; " + Emit +
           " cannot go with it";
  bool Module = Opts.Emit == EmitKind::CudaModule;
  if (Module && All)
    return "--all-variants does nothing with --emit=cuda-module, which "
           "holds one variant of each kernel";
  if (Module && R.count("db") && Variant)
    return "--db and --variant exclude each other: the module holds the "
           "tuned winner or the variant named";
  for (const char *Opt :
       {"budget", "exhaustive", "retune", "report", "db", "search", "verify",
        "gpus", "occupancy-tries"})
    if (R.count(Opt) && !Opts.Tune && !(Module && std::string(Opt) == "db"))
      return std::string("--") + Opt + " goes with --tune" +
             (std::string(Opt) == "db"
                  ? " or --emit=cuda-module (the winners it builds with)"
                  : "");
  if (R.count("budget") && R.count("exhaustive"))
    return "--budget and --exhaustive exclude each other; --exhaustive times "
           "every variant";
  if (R.count("sample") && !Check)
    return "--sample goes with --check, which runs a sample of the variants";
  if (R.count("every-strategy") && !Opts.CheckOpenCL)
    return "--every-strategy goes with --check=opencl, which runs a sample "
           "of the variants";
  for (const char *Opt : {"sample", "every-strategy"})
    if (R.count(Opt) && (Variant || All))
      return std::string("--") + Opt + " does nothing with " +
             (All ? "--all-variants, which checks every variant"
                  : "--variant, which checks one variant");
  for (const char *Opt : {"param", "all-params"})
    if (R.count(Opt) && !Runs)
      return std::string("--") + Opt +
             " goes with --tune or --check=opencl, which run the kernel; "
             "-D NAME=VALUE fixes a size in the generated code";
  for (const char *Opt : {"seed", "plant"})
    if (R.count(Opt) && !Runs)
      return std::string("--") + Opt +
             " goes with --tune or --check=opencl, which run the kernel";
  if (R.count("arch") && Opts.Emit != EmitKind::PTX && !Opts.CheckNvrtc)
    return std::string("--arch goes with --emit=ptx or --check=nvrtc") +
           (Opts.Tune ? "; --tune compiles for the GPU it finds" : "");
  if (R.count("format") && !Check && !Opts.Tune &&
      Opts.Emit != EmitKind::Variants)
    return "--format goes with --emit=variants, --check or --tune; "
           "--emit=json gives the launch metadata of generated code";
  if (R.count("format") && R.count("report"))
    return "--report prints a table beside the CUDA source; --format=json "
           "lists every variant tried already";
  if (All && !Check) {
    if (Opts.Emit == EmitKind::IR)
      return "--all-variants does nothing with --emit=ir, which prints each "
             "kernel before planning";
    if (Opts.Emit == EmitKind::Variants)
      return "--all-variants does nothing with --emit=variants, which lists "
             "every variant already";
    if (Opts.Emit == EmitKind::PTX)
      return "--all-variants does nothing with --emit=ptx, which compiles "
             "one variant; --check=nvrtc --all-variants compiles them all";
  }
  if (Variant && Opts.Emit == EmitKind::Variants)
    return "--variant does nothing with --emit=variants, which lists every "
           "variant";
  if (Variant && Opts.CheckNvrtc)
    return "--variant does nothing with --check=nvrtc, which compiles a "
           "sample; --emit=ptx --variant=SCHEDULE compiles one";
  for (const char *Opt :
       {"min-threads", "min-blocks", "max-shared", "plan-limit", "allow-tf32"})
    if (R.count(Opt) && Opts.Emit == EmitKind::IR && !Check)
      return std::string("--") + Opt +
             " constrains the planner; --emit=ir prints each kernel before "
             "planning";
  return std::nullopt;
}

/// The groups of --help, in the order printed.
const std::vector<std::string> HelpGroups = {
    "Output", "Size", "Tuning", "Checking", "Planner", "Other"};

void addOptions(cxxopts::Options &Options) {
  Options.add_options("Output")
      ("o,output", "write the output to FILE instead of standard output",
       cxxopts::value<std::string>(), "FILE")
      ("emit", "what to produce instead of the default CUDA (the tuned "
               "winner where a GPU is present, else the first-ranked "
               "variant): cuda (first-ranked, never tuned), ir, opencl, "
               "ptx, variants, json or cuda-module (-o NAME writes NAME.cu "
               "and NAME.h with a typed launcher per kernel, for nvcc)",
       cxxopts::value<std::string>(), "KIND")
      ("format", "with --emit=variants, --check or --tune: text (default) "
                 "or json, one array",
       cxxopts::value<std::string>(), "FORMAT")
      ("variant", "emit the variant with this schedule string or index "
                  "(with --tune: time it alone, storing nothing)",
       cxxopts::value<std::string>(), "SCHEDULE")
      ("all-variants", "emit or check every variant of each kernel",
       cxxopts::value<bool>()->default_value("false"))
      ("arch", "GPU architecture for --emit=ptx and --check=nvrtc "
               "(default sm_90)",
       cxxopts::value<std::string>(), "SM");
  Options.add_options("Size")
      ("D,define", "fix the index parameter NAME to VALUE, a constant in the "
                   "code (repeatable)",
       cxxopts::value<std::vector<std::string>>(), "NAME=VALUE")
      ("param", "with --tune or --check=opencl: run with index parameter "
                "NAME = VALUE, kept a kernel argument (repeatable)",
       cxxopts::value<std::vector<std::string>>(), "NAME=VALUE")
      ("all-params", "with --tune or --check=opencl: every index parameter "
                     "not given with -D or --param takes VALUE",
       cxxopts::value<long>(), "VALUE");
  Options.add_options("Tuning")
      ("tune", "run variants on the GPU, verify them, keep the fastest in the "
               "tuning database and print it (every index parameter needs a "
               "value: -D, --param or --all-params); an error without a GPU")
      ("budget", "with --tune: time at most N variants (default 64)",
       cxxopts::value<size_t>(), "N")
      ("search", "with --tune: which variants the budget runs: 'families' "
                 "(half the budget on a spread of the variants' families, "
                 "then the families that ran fastest), 'learned' (the "
                 "spread, then rounds of the variants that a model fit on "
                 "the measured ones predicts fastest) or 'ranked' (the "
                 "static cost model's best ranked)",
       cxxopts::value<std::string>()->default_value("families"), "HOW")
      ("verify", "with --tune: how each variant's outputs are checked: "
                 "'whole' (every element against the interpreter), "
                 "'sampled' (sampled points against the interpreter, every "
                 "element against the first verified variant on the GPU) "
                 "or 'auto' (whole up to 2e8 FLOPs and 16 MiB of outputs, "
                 "else sampled)",
       cxxopts::value<std::string>()->default_value("auto"), "HOW")
      ("gpus", "with --tune: spread the variants over at most N GPUs of "
               "the host like the first (0: all of them); the fastest are "
               "timed again on the first",
       cxxopts::value<unsigned>()->default_value("0"), "N")
      ("occupancy-tries",
       "with --tune: run the N fastest variants whose registers limit the "
       "blocks per multiprocessor again, asking the compiler for one block "
       "more (__launch_bounds__), beside the budget (0: none)",
       cxxopts::value<unsigned>()->default_value("3"), "N")
      ("exhaustive", "with --tune: time every variant")
      ("retune", "with --tune: search again even if the database has a result")
      ("report", "with --tune: print the ranked table of the first N variants",
       cxxopts::value<size_t>()->implicit_value("20"), "N")
      ("db", "with --tune, --db-export or --db-merge: the tuning database "
             "(default $XDG_CACHE_HOME/loopy/tuning.db, or $LOOPY_TUNING_DB); "
             "with --emit=cuda-module: the database whose winners the module "
             "holds (tuned on any device)",
       cxxopts::value<std::string>(), "PATH")
      ("db-export", "write every result of the tuning database to FILE as "
                    "JSON ('-': standard output), for --db-merge elsewhere; "
                    "no input file",
       cxxopts::value<std::string>(), "FILE")
      ("db-merge", "merge the results in FILE (from --db-export) into the "
                   "tuning database, keeping for each key the faster "
                   "winner; no input file",
       cxxopts::value<std::string>(), "FILE");
  Options.add_options("Checking")
      ("check", "nvrtc: compile sampled variants with NVRTC; opencl: run them "
                "on PoCL and compare with the reference interpreter",
       cxxopts::value<std::string>(), "WHAT")
      ("sample", "with --check: run exactly N variants per kernel, or all "
                 "where there are fewer (0: all; default 200)",
       cxxopts::value<long>(), "N")
      ("every-strategy", "with --check=opencl: the sample also holds the best "
                         "ranked variant of every reduction strategy and set "
                         "of staged reads, growing past --sample where needed")
      ("seed", "with --tune or --check=opencl: seed of the random inputs "
               "(default 1)",
       cxxopts::value<unsigned long>(), "N")
      ("plant", "with --check=opencl or --tune, testing the checks: damage "
                "the variants first (drop-barrier, skip-first-iteration, "
                "skip-thread-0; with --tune also fault or hang; with --tune "
                "in the second variant only, BUG@N in the one after N)",
       cxxopts::value<std::string>(), "BUG");
  Options.add_options("Planner")
      ("min-threads", "at least this many threads per block",
       cxxopts::value<long>()->default_value("32"), "N")
      ("min-blocks", "at least this many blocks, where sizes are fixed",
       cxxopts::value<long>()->default_value("1"), "N")
      ("max-shared", "at most this many bytes of shared memory per block; "
                     "past 49152 they are allocated at launch, with the "
                     "kernel opted in (sm_90 allows 232448); by default "
                     "what the GPU allows where tuning, else 49152",
       cxxopts::value<long>()->default_value("49152"), "BYTES")
      ("plan-limit", "at most this many schedules analysed with isl per "
                     "kernel, and isl's work in proportion; a larger space "
                     "is sampled alike on every run (0: no limit)",
       cxxopts::value<long>()->default_value("6000"), "N")
      ("allow-tf32", "offer sums of f32 products on the tensor cores, "
                     "their operands rounded to tf32 (10 bits of mantissa; "
                     "checked with a tolerance to match)");
  Options.add_options("Other")
      ("j,jobs", "threads that lower, compile and run variants (0: one per "
                 "core)",
       cxxopts::value<unsigned>()->default_value("0"), "N")
      ("color", "colour diagnostics as clang does: auto (where standard "
                "error is a terminal and NO_COLOR is unset; the default), "
                "always or never",
       cxxopts::value<std::string>(), "WHEN")
      ("isl-max-operations", "bound on isl's work in the checks, in "
                             "planning each statement and in lowering each "
                             "variant (0: unlimited)",
       cxxopts::value<unsigned long>()->default_value("20000000"), "N")
      ("h,help", "print this help and exit")
      ("version", "print the version and the commit it was built from, and "
                  "exit");
  Options.add_options("Input")
      ("input", "the .loop file, or - for standard input",
       cxxopts::value<std::vector<std::string>>());
  Options.parse_positional({"input"});
}

int run(int argc, char **argv) {
  cxxopts::Options Options(
      "loopyc", "loopyc: a loop-kernel compiler that produces tuned CUDA\n");
  Options.positional_help("FILE").show_positional_help();
  addOptions(Options);

  cxxopts::ParseResult R;
  try {
    R = Options.parse(argc, argv);
  } catch (const cxxopts::exceptions::exception &E) {
    std::cerr << "loopyc: error: " << E.what() << "\n"
              << "loopyc: try 'loopyc --help'\n";
    return 1;
  }
  if (R.count("help")) {
    std::cout << Options.help(HelpGroups) << "\n"
              << "Without --emit, --tune or --check, loopyc prints the CUDA "
                 "source of each kernel:\nthe tuned winner where a GPU is "
                 "present and every index parameter has a value\n(tuned once, "
                 "then read from the tuning database), else the planner's "
                 "first-ranked\nvariant; one note on standard error says "
                 "which.\n\n"
              << "Examples:\n"
              << "  loopyc examples/matmul.loop -D n=1024 -D m=1024 -D l=1024\n"
              << "  loopyc examples/matmul.loop --emit=ir\n"
              << "  loopyc examples/matmul.loop -D n=4096 -D m=4096 -D l=4096 "
                 "--tune --report\n"
              << "  loopyc examples/matmul.loop --check=opencl --all-params=37 "
                 "--sample=20\n"
              << "\nExit status: 0 success, 1 error in the input or "
                 "options, 2 internal error.\n";
    return 0;
  }
  if (R.count("version")) {
    std::cout << "loopyc " << LOOPY_VERSION << " (commit " << LOOPY_GIT_COMMIT
              << ")\n";
    return 0;
  }

  if (R.count("db-export") || R.count("db-merge")) {
    if (R.count("db-export") && R.count("db-merge")) {
      std::cerr << "loopyc: error: --db-export and --db-merge exclude each "
                   "other; run one, then the other\n";
      return 1;
    }
    if (R.count("input")) {
      std::cerr << "loopyc: error: --db-export and --db-merge work on the "
                   "tuning database alone; give no input file\n";
      return 1;
    }
    std::string Db = R.count("db") ? R["db"].as<std::string>() : "";
    if (R.count("db") && Db.empty()) {
      std::cerr << "loopyc: error: --db needs a file path; leave it out for "
                   "the default database\n";
      return 1;
    }
    loopy::Status S =
        R.count("db-export")
            ? loopy::exportTuningDb(Db, R["db-export"].as<std::string>(),
                                    std::cout, std::cerr)
            : loopy::mergeTuningDb(Db, R["db-merge"].as<std::string>(),
                                   std::cerr);
    return S ? 0 : exitStatus(S.failure());
  }

  if (R.count("color")) {
    std::string C = R["color"].as<std::string>();
    if (C == "always") {
      loopy::setDiagnosticColor(loopy::ColorMode::Always);
    } else if (C == "never") {
      loopy::setDiagnosticColor(loopy::ColorMode::Never);
    } else if (C != "auto") {
      std::cerr << "loopyc: error: unknown --color value '" << C
                << "'; expected auto, always or never\n";
      return 1;
    }
  }

  loopy::CompileOptions Opts;
  if (!R.count("input")) {
    std::cerr << "loopyc: error: no input file; run 'loopyc FILE' or "
                 "'loopyc -' to read standard input\n";
    return 1;
  }
  auto Inputs = R["input"].as<std::vector<std::string>>();
  if (Inputs.size() != 1) {
    std::cerr << "loopyc: error: expected one input file, got "
              << Inputs.size() << "\n";
    return 1;
  }
  Opts.Input = Inputs[0];
  std::string Emit = R.count("emit") ? R["emit"].as<std::string>() : "";
  if (R.count("emit")) {
    auto Kind = loopy::parseEmitKind(Emit);
    if (!Kind) {
      std::cerr << "loopyc: error: unknown --emit value '" << Emit
                << "'; expected cuda, ir, opencl, ptx, variants, json or cuda-module\n";
      return 1;
    }
    Opts.Emit = *Kind;
  }
  if (R.count("check")) {
    std::string C = R["check"].as<std::string>();
    if (C == "nvrtc") {
      Opts.CheckNvrtc = true;
    } else if (C == "opencl") {
      Opts.CheckOpenCL = true;
    } else {
      std::cerr << "loopyc: error: unknown --check value '" << C
                << "'; expected nvrtc or opencl\n";
      return 1;
    }
  }
  Opts.Tune = R.count("tune") > 0;
  if (std::optional<std::string> E = idleOption(R, Opts)) {
    std::cerr << "loopyc: error: " << *E << "\n";
    return 1;
  }
  if (R.count("format")) {
    std::string F = R["format"].as<std::string>();
    if (F != "text" && F != "json") {
      std::cerr << "loopyc: error: unknown --format value '" << F
                << "'; expected text or json\n";
      return 1;
    }
    Opts.FormatJson = F == "json";
  }
  if (R.count("output"))
    Opts.Output = R["output"].as<std::string>();
  if (R.count("variant"))
    Opts.Variant = R["variant"].as<std::string>();
  Opts.AllVariants = R["all-variants"].as<bool>();
  Opts.IslMaxOperations = R["isl-max-operations"].as<unsigned long>();
  if (R.count("arch"))
    Opts.Arch = R["arch"].as<std::string>();
  if (Opts.Arch.rfind("sm_", 0) != 0) {
    std::cerr << "loopyc: error: --arch takes a GPU architecture such as "
                 "sm_90, not '"
              << Opts.Arch << "'\n";
    return 1;
  }
  if (R.count("sample"))
    Opts.Sample = R["sample"].as<long>();
  Opts.EveryStrategy = R.count("every-strategy") > 0;
  if (R.count("seed"))
    Opts.Seed = R["seed"].as<unsigned long>();
  if (R.count("all-params"))
    Opts.AllParams = R["all-params"].as<long>();
  Opts.Exhaustive = R.count("exhaustive") > 0;
  Opts.Retune = R.count("retune") > 0;
  if (R.count("budget")) {
    Opts.Budget = R["budget"].as<size_t>();
    if (Opts.Budget == 0) {
      std::cerr << "loopyc: error: --budget must be at least 1; use "
                   "--exhaustive to time every variant\n";
      return 1;
    }
  }
  if (R.count("report"))
    Opts.Report = R["report"].as<size_t>();
  std::string Search = R["search"].as<std::string>();
  if (Search == "ranked") {
    Opts.Search = loopy::CompileOptions::SearchKind::Ranked;
  } else if (Search == "learned") {
    Opts.Search = loopy::CompileOptions::SearchKind::Learned;
  } else if (Search != "families") {
    std::cerr << "loopyc: error: --search takes 'families', 'ranked' or "
                 "'learned', not '"
              << Search << "'\n";
    return 1;
  }
  Opts.Gpus = R["gpus"].as<unsigned>();
  Opts.OccupancyTries = R["occupancy-tries"].as<unsigned>();
  std::string Verify = R["verify"].as<std::string>();
  if (Verify == "whole") {
    Opts.Verify = loopy::CompileOptions::VerifyKind::Whole;
  } else if (Verify == "sampled") {
    Opts.Verify = loopy::CompileOptions::VerifyKind::Sampled;
  } else if (Verify != "auto") {
    std::cerr << "loopyc: error: --verify takes 'auto', 'whole' or 'sampled', "
                 "not '"
              << Verify << "'\n";
    return 1;
  }
  if (R.count("db")) {
    Opts.Db = R["db"].as<std::string>();
    if (Opts.Db.empty()) {
      std::cerr << "loopyc: error: --db needs a file path; leave it out for "
                   "the default database\n";
      return 1;
    }
  }
  if (R.count("plant")) {
    Opts.Plant = R["plant"].as<std::string>();
    size_t At = Opts.Plant.find('@');
    if (At != std::string::npos && Opts.Tune) {
      std::string N = Opts.Plant.substr(At + 1);
      Opts.Plant.resize(At);
      if (N.empty() || N.size() > 4 ||
          N.find_first_not_of("0123456789") != std::string::npos ||
          std::stoul(N) == 0) {
        std::cerr << "loopyc: error: --plant=" << Opts.Plant << "@" << N
                  << ": give the candidate as a number from 1\n";
        return 1;
      }
      Opts.PlantAt = static_cast<unsigned>(std::stoul(N));
    }
    bool Known = Opts.Plant == "drop-barrier" ||
                 Opts.Plant == "skip-first-iteration" ||
                 Opts.Plant == "skip-thread-0" ||
                 (Opts.Tune && (Opts.Plant == "fault" || Opts.Plant == "hang"));
    if (!Known) {
      std::cerr << "loopyc: error: unknown --plant value '" << Opts.Plant
                << "'; expected drop-barrier, skip-first-iteration or "
                   "skip-thread-0 (with --tune also fault or hang)\n";
      return 1;
    }
  }
  Opts.Jobs = R["jobs"].as<unsigned>();
  Opts.Planner.MinThreads = R["min-threads"].as<long>();
  Opts.Planner.MinBlocks = R["min-blocks"].as<long>();
  Opts.Planner.MaxSharedBytes = R["max-shared"].as<long>();
  Opts.SharedFromDevice = !R.count("max-shared");
  Opts.Planner.AllowTf32 = R.count("allow-tf32") > 0;
  if (Opts.Planner.MaxSharedBytes < 0 || Opts.Planner.MaxSharedBytes > 232448) {
    std::cerr << "loopyc: error: --max-shared=" << Opts.Planner.MaxSharedBytes
              << " is outside 0 to 232448 bytes, the most an sm_90 block "
                 "may opt in to\n";
    return 1;
  }
  Opts.Planner.MaxAnalyses = R["plan-limit"].as<long>();
  if (Opts.Planner.MaxAnalyses < 0) {
    std::cerr << "loopyc: error: --plan-limit=" << Opts.Planner.MaxAnalyses
              << " is negative; give a number of schedules, or 0 for no "
                 "limit\n";
    return 1;
  }
  // -D NAME=VALUE and --param NAME=VALUE: one value per name.
  auto Values = [&](const char *Opt, const char *Flag,
                    std::map<std::string, long> &Into) {
    if (!R.count(Opt))
      return true;
    for (const std::string &D : R[Opt].as<std::vector<std::string>>()) {
      std::pair<std::string, long> P;
      if (!parseDefine(D, P)) {
        std::cerr << "loopyc: error: malformed " << Flag << " '" << D
                  << "'; expected NAME=INTEGER, such as " << Flag << " n=1024\n";
        return false;
      }
      if (Into.count(P.first) && Into[P.first] != P.second) {
        std::cerr << "loopyc: error: " << Flag << " " << P.first
                  << " is given twice with different values\n";
        return false;
      }
      Into[P.first] = P.second;
    }
    return true;
  };
  if (!Values("define", "-D", Opts.Defines) ||
      !Values("param", "--param", Opts.RunParams))
    return 1;
  for (auto &[Name, V] : Opts.RunParams)
    if (Opts.Defines.count(Name)) {
      std::cerr << "loopyc: error: " << Name
                << " is given both with -D and with --param; use one\n";
      return 1;
    }
  // C and C++ files are lifted to .loop text first.
  bool Lifted = loopy::isCSource(Opts.Input);
  if (Lifted) {
    auto Text = loopy::liftCSource(Opts.Input);
    if (!Text)
      return exitStatus(Text.failure());
    Opts.InputText = std::move(*Text);
    Opts.InputName = loopy::LiftedName;
  }
  loopy::Status S = loopy::runCompiler(Opts, std::cout, std::cerr);
  if (S)
    return 0;
  if (!S.failure().isInternal() && Lifted)
    loopy::noteLiftedSource(Inputs[0], std::cerr);
  return exitStatus(S.failure());
}

} // namespace

int main(int argc, char **argv) {
  try {
    return run(argc, argv);
  } catch (const std::bad_alloc &) {
    std::cerr << "loopyc: error: out of memory (each thread of -j needs its "
                 "own; fewer need less)\n";
    return 2;
  } catch (const std::exception &E) {
    std::cerr << "loopyc: internal error: " << E.what() << "\n";
    return 2;
  } catch (...) {
    std::cerr << "loopyc: internal error: unknown exception\n";
    return 2;
  }
}
