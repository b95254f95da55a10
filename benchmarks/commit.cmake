# Writes OUT, a header that defines LOOPY_COMMIT as the source tree's git
# HEAD ("-dirty" where tracked files differ from it; "unknown" without
# git), at every build, and touches it only when that text changes: the
# results of loopy-bench name the commit their program was built from.
#
#   cmake -DGIT=... -DSRC=... -DOUT=... -P commit.cmake
set(Commit unknown)
if(GIT)
  execute_process(COMMAND ${GIT} rev-parse --short HEAD
                  WORKING_DIRECTORY ${SRC} OUTPUT_VARIABLE Head
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET
                  RESULT_VARIABLE Status)
  if(Status EQUAL 0 AND NOT Head STREQUAL "")
    set(Commit ${Head})
    execute_process(COMMAND ${GIT} diff --quiet HEAD --
                    WORKING_DIRECTORY ${SRC} RESULT_VARIABLE Dirty
                    ERROR_QUIET)
    if(NOT Dirty EQUAL 0)
      set(Commit "${Commit}-dirty")
    endif()
  endif()
endif()
set(Text "#define LOOPY_COMMIT \"${Commit}\"\n")
set(Old "")
if(EXISTS ${OUT})
  file(READ ${OUT} Old)
endif()
if(NOT Old STREQUAL Text)
  file(WRITE ${OUT} "${Text}")
endif()
