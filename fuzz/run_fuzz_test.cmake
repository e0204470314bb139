# SPDX-License-Identifier: Apache-2.0
# The body of one fuzz CTest (fuzz/CMakeLists.txt): first every regression
# input once (a crash found earlier must stay fixed), then a bounded fuzzing
# run over the seed corpus. Any crash, leak, sanitizer report, timeout or
# out-of-memory makes libFuzzer exit non-zero, and the test fails.
file(GLOB regression_inputs ${REGRESSIONS}/*)
if(regression_inputs)
  execute_process(COMMAND ${FUZZER} -rss_limit_mb=1024 -timeout=20 ${regression_inputs}
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "a regression input of ${FUZZER} fails again (exit ${rc})")
  endif()
endif()

file(MAKE_DIRECTORY ${SCRATCH})
execute_process(COMMAND ${FUZZER} -max_total_time=${SECONDS} -rss_limit_mb=1024 -timeout=20
                        -print_final_stats=1 -artifact_prefix=${SCRATCH}/
                        ${SCRATCH} ${CORPUS}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${FUZZER} found a problem (exit ${rc}); the input is in ${SCRATCH}/")
endif()
