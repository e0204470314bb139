// Placeholder so the library has a source until the UI lands.
namespace poslab::ui {
int uiPlaceholder() { return 0; }
}
