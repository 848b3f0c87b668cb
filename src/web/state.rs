use std::sync::{Arc, RwLock};

use crate::content::Library;
use crate::search::{Engine, SearchError};

/// What every request reads. The engine (library + index) sits behind a lock so a reload can
/// swap it whole while requests in flight keep the snapshot they started with.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

struct Inner {
    engine: RwLock<Arc<Engine>>,
}

impl AppState {
    /// Indexes `library` and serves it.
    pub fn new(library: Library) -> Result<Self, SearchError> {
        let engine = Engine::build(Arc::new(library))?;
        Ok(AppState {
            inner: Arc::new(Inner {
                engine: RwLock::new(Arc::new(engine)),
            }),
        })
    }

    /// The current engine snapshot.
    pub fn engine(&self) -> Arc<Engine> {
        match self.inner.engine.read() {
            Ok(guard) => Arc::clone(&guard),
            Err(poisoned) => Arc::clone(&poisoned.into_inner()),
        }
    }

    /// The library of the current snapshot.
    pub fn library(&self) -> Arc<Library> {
        self.engine().library_arc()
    }

    /// Swaps in a freshly built engine; requests already running finish on the old one.
    pub fn replace_engine(&self, engine: Engine) {
        let fresh = Arc::new(engine);
        match self.inner.engine.write() {
            Ok(mut guard) => *guard = fresh,
            Err(poisoned) => *poisoned.into_inner() = fresh,
        }
    }
}
