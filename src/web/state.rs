use std::sync::{Arc, RwLock};

use crate::content::Library;

/// What every request reads. The library sits behind a lock so a reload can swap it whole
/// while requests in flight keep the snapshot they started with.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

struct Inner {
    library: RwLock<Arc<Library>>,
}

impl AppState {
    pub fn new(library: Library) -> Self {
        AppState {
            inner: Arc::new(Inner {
                library: RwLock::new(Arc::new(library)),
            }),
        }
    }

    /// The current library snapshot.
    pub fn library(&self) -> Arc<Library> {
        match self.inner.library.read() {
            Ok(guard) => Arc::clone(&guard),
            Err(poisoned) => Arc::clone(&poisoned.into_inner()),
        }
    }

    pub fn replace_library(&self, library: Library) {
        let fresh = Arc::new(library);
        match self.inner.library.write() {
            Ok(mut guard) => *guard = fresh,
            Err(poisoned) => *poisoned.into_inner() = fresh,
        }
    }
}
