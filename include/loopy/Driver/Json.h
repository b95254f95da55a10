//===- Json.h - JSON documents of loopyc's outputs --------------*- C++ -*-===//
//
// Outputs in JSON (--emit=json, the benchmark results) are built as
// nlohmann::ordered_json documents, which keep their keys in the order
// given and escape every string. printJson lays a document out for
// reading: the document itself and containers that hold containers of
// containers go one member per line, indented by two spaces; smaller ones
// stay on one line, so that a launch's block, grid and arguments, or one
// row of a check, read at a glance.
//
//===----------------------------------------------------------------------===//
#ifndef LOOPY_DRIVER_JSON_H
#define LOOPY_DRIVER_JSON_H

#include <nlohmann/json.hpp>

#include <string>

namespace loopy {

using Json = nlohmann::ordered_json;

/// \p J as text, laid out as above, without a final newline.
std::string printJson(const Json &J);

} // namespace loopy

#endif
