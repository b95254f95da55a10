# loopy_add_kernels(TARGET FILES F.loop... [SIZES NAME=VALUE...] [DB PATH]
#                   [OUTPUT_DIR DIR])
#
# Runs loopyc at build time on each .loop file (loopyc --emit=cuda-module,
# the sizes as -D NAME=VALUE) and adds the generated F.cu to TARGET, whose
# project must enable CUDA. F.h, in OUTPUT_DIR (default
# CMAKE_CURRENT_BINARY_DIR/loopy_kernels, put on TARGET's include path),
# declares a typed launcher per kernel: loopy::kernels::NAME(pointers and
# scalars by name, cudaStream_t) returning cudaError_t. With DB, each
# kernel is the winner tuned earlier at these sizes in that tuning
# database (loopyc --tune --db PATH on the GPU machine), else the
# planner's first-ranked variant. The files are generated again when the
# .loop file, the database or loopyc changes.
function(loopy_add_kernels Target)
  cmake_parse_arguments(PARSE_ARGV 1 LAK "" "DB;OUTPUT_DIR" "FILES;SIZES")
  if(NOT LAK_FILES)
    message(FATAL_ERROR "loopy_add_kernels(${Target}): no FILES given")
  endif()
  if(LAK_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "loopy_add_kernels(${Target}): unknown arguments "
                        "${LAK_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT LAK_OUTPUT_DIR)
    set(LAK_OUTPUT_DIR ${CMAKE_CURRENT_BINARY_DIR}/loopy_kernels)
  endif()
  if(TARGET Loopy::loopyc)
    set(Loopyc Loopy::loopyc)
  elseif(TARGET loopyc)
    set(Loopyc loopyc) # inside loopyc's own build
  else()
    message(FATAL_ERROR "loopy_add_kernels: no loopyc; find_package(Loopy)")
  endif()
  set(Args "")
  foreach(S IN LISTS LAK_SIZES)
    if(NOT S MATCHES "^[A-Za-z_][A-Za-z0-9_]*=-?[0-9]+$")
      message(FATAL_ERROR "loopy_add_kernels(${Target}): size '${S}' is "
                          "not NAME=INTEGER")
    endif()
    list(APPEND Args -D ${S})
  endforeach()
  set(Depends "")
  if(LAK_DB)
    get_filename_component(Db ${LAK_DB} ABSOLUTE)
    list(APPEND Args --db ${Db})
    set(Depends ${Db})
  endif()
  file(MAKE_DIRECTORY ${LAK_OUTPUT_DIR})
  foreach(F IN LISTS LAK_FILES)
    get_filename_component(Src ${F} ABSOLUTE)
    get_filename_component(Stem ${F} NAME_WE)
    set(Out ${LAK_OUTPUT_DIR}/${Stem})
    add_custom_command(
      OUTPUT ${Out}.cu ${Out}.h
      COMMAND ${Loopyc} ${Src} --emit=cuda-module -o ${Out} ${Args}
      DEPENDS ${Src} ${Loopyc} ${Depends}
      COMMENT "loopyc: generating ${Stem}.cu and ${Stem}.h"
      VERBATIM)
    target_sources(${Target} PRIVATE ${Out}.cu ${Out}.h)
  endforeach()
  target_include_directories(${Target} PUBLIC ${LAK_OUTPUT_DIR})
endfunction()
