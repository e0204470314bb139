// Fixture for the layer_violations test: lm is plain C++ (no Qt).
#include <QString>
#include <cblas.h>
