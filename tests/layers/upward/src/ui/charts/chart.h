// Fixture for the layer_violations test: charts must not see the window.
#pragma once
#include "ui/window/main_window.h"
