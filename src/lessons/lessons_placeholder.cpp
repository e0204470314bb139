// Placeholder so the library has a source until the lesson engine lands.
namespace poslab::lessons {
int lessonsPlaceholder() { return 0; }
}
