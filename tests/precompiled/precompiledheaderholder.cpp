// Compiles nothing of its own: its target exists to build the precompiled Qt headers that every test
// executable reuses (tests/CMakeLists.txt, cmake/PrecompiledHeaders.cmake).
