// Fixture for the layer_violations test: the window may see everything below it.
#pragma once
#include "ui/charts/chart.h"
#include "modules/missing.h"
