// SPDX-License-Identifier: Apache-2.0
// precompiled_host.cpp — the one file of the two targets that precompile the
// tests' Qt headers (tests/CMakeLists.txt); the tests reuse what they build.
