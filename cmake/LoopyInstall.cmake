# The installed package (cmake --install BUILD --prefix P):
#   P/bin/loopyc, P/bin/loopy-extract (where built)   the tools
#   P/libexec/loopy/loopy-worker                       found from bin/ and
#                                                      from programs in P/bin
#   P/include/loopy/..., P/include/isl/... (bundled isl)
#   P/lib/libloopy.a                                   every Loopy archive and
#                                                      the bundled isl in one
#   P/lib/cmake/Loopy/LoopyConfig.cmake (+ version, LoopyKernels.cmake)
#   P/lib/pkgconfig/loopy.pc
# and a .deb of the tools (component "tools") through CPack. The paths are
# fixed relative to P (no GNUInstallDirs multiarch libdir) because the
# programs find the worker and their data relative to their own folder.
include(CMakePackageConfigHelpers)

set(LOOPY_INSTALL_CMAKEDIR lib/cmake/Loopy)

install(TARGETS loopyc RUNTIME DESTINATION bin COMPONENT tools)
if(TARGET loopy-extract)
  install(TARGETS loopy-extract RUNTIME DESTINATION bin COMPONENT tools)
endif()
install(TARGETS loopy-worker RUNTIME DESTINATION libexec/loopy COMPONENT tools)

install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/loopy DESTINATION include
        COMPONENT dev FILES_MATCHING PATTERN "*.h")

# One static archive: the Loopy libraries in dependency order, and isl when
# it is the IMath build (LOOPY_ISL_ROOT) that the package carries along,
# with its headers (loopy.h reaches isl/cpp.h through the planner's types).
# GNU ar's MRI script merges archives member by member; it runs at install
# time, so ordinary builds do not pay for copying the archives again.
set(LOOPY_ARCHIVES LoopyApi LoopyDriver LoopyTuner LoopyCompile LoopyInterp
    LoopyCodeGen LoopyPlanner LoopySchedule LoopyAnalysis LoopySema
    LoopyFrontend LoopyIR LoopyRuntime LoopyCuda LoopySupport LoopyHalf)
set(LOOPY_ARCHIVE_MEMBERS "")
foreach(A IN LISTS LOOPY_ARCHIVES)
  string(APPEND LOOPY_ARCHIVE_MEMBERS "addlib $<TARGET_FILE:${A}>\n")
endforeach()
if(LOOPY_ISL_ROOT)
  string(APPEND LOOPY_ARCHIVE_MEMBERS "addlib ${ISL_LIBRARY}\n")
  install(DIRECTORY ${ISL_INCLUDE_DIR}/isl DESTINATION include COMPONENT dev)
  set(LOOPY_ISL_LINK "")
else()
  # With the separator from the next item of the link interface.
  set(LOOPY_ISL_LINK "${ISL_LIBRARY};${GMP_LIBRARY};")
endif()
file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/loopy-archive-members.mri
     CONTENT "${LOOPY_ARCHIVE_MEMBERS}")
install(CODE "
  set(Out \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/lib/libloopy.a\")
  message(STATUS \"Installing: \${Out}\")
  file(MAKE_DIRECTORY \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/lib\")
  file(REMOVE \"\${Out}\")
  file(READ \"${CMAKE_BINARY_DIR}/loopy-archive-members.mri\" Members)
  file(WRITE \"${CMAKE_BINARY_DIR}/loopy-archive.mri\"
       \"create \${Out}\\n\${Members}save\\nend\\n\")
  execute_process(COMMAND \"${CMAKE_AR}\" -M
                  INPUT_FILE \"${CMAKE_BINARY_DIR}/loopy-archive.mri\"
                  RESULT_VARIABLE Rc)
  if(NOT Rc EQUAL 0)
    message(FATAL_ERROR \"cannot merge the Loopy archives into \${Out}\")
  endif()
" COMPONENT dev)

# What a program linking libloopy.a needs besides it.
if(LOOPY_STATIC_DEPS AND SQLITE3_STATIC_LIBRARY)
  set(LOOPY_SQLITE_LINK "${SQLITE3_STATIC_LIBRARY}")
else()
  set(LOOPY_SQLITE_LINK "SQLite::SQLite3")
endif()
set(LOOPY_PC_LIBS "-L${CUDAToolkit_LIBRARY_DIR} -lnvrtc")
if(LOOPY_ISL_LINK)
  string(APPEND LOOPY_PC_LIBS " -lisl -lgmp")
endif()
string(APPEND LOOPY_PC_LIBS " -lsqlite3 -lpthread -ldl -lm")

configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/LoopyConfig.cmake.in
  ${CMAKE_BINARY_DIR}/cmake/LoopyConfig.cmake
  INSTALL_DESTINATION ${LOOPY_INSTALL_CMAKEDIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/cmake/LoopyConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/cmake/LoopyConfig.cmake
              ${CMAKE_BINARY_DIR}/cmake/LoopyConfigVersion.cmake
              ${CMAKE_SOURCE_DIR}/cmake/LoopyKernels.cmake
        DESTINATION ${LOOPY_INSTALL_CMAKEDIR} COMPONENT dev)
configure_file(${CMAKE_SOURCE_DIR}/cmake/loopy.pc.in
               ${CMAKE_BINARY_DIR}/cmake/loopy.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/cmake/loopy.pc DESTINATION lib/pkgconfig
        COMPONENT dev)

# cpack -G DEB in the build folder: the tools alone. NVRTC and the GPU
# driver come from NVIDIA's packages, which Debian does not name, so the
# package depends on nothing beyond the C library (and Clang 14's
# libraries for loopy-extract).
set(CPACK_PACKAGE_NAME loopyc)
set(CPACK_PACKAGE_VENDOR "loopyc")
set(CPACK_PACKAGE_CONTACT "loopyc developers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "loopyc: a loop-kernel compiler that produces tuned CUDA")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR DEB)
set(CPACK_COMPONENTS_ALL tools)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING ALL_COMPONENTS_IN_ONE)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6")
if(TARGET loopy-extract)
  # Debian's Clang 14, which loopy-extract links dynamically.
  string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", libclang-cpp14, libllvm14")
endif()
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
include(CPack)
