// Fixture for the layer_violations test: core must not see ui.
#pragma once
#include "ui/window/main_window.h"
