# ctest "lintian": builds the .deb with CPack into its own directory (so it never clobbers the one in
# the build directory, nor races a cpack run there) and fails when lintian reports an error or warning.
# Called with -DCPACK=... -DLINTIAN=... -DCONFIG=<CPackConfig.cmake> -DOUT=<directory>.
file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${CPACK} -G DEB --config ${CONFIG} -B ${OUT} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cpack -G DEB failed (${rc})")
endif()
file(GLOB debs ${OUT}/*.deb)
list(LENGTH debs count)
if(NOT count EQUAL 1)
  message(FATAL_ERROR "expected one .deb in ${OUT}, found: ${debs}")
endif()
# --display-info shows the info tags too, but only errors and warnings fail the test.
execute_process(COMMAND ${LINTIAN} --display-info --fail-on error,warning ${debs} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "lintian reports errors or warnings for ${debs}")
endif()
