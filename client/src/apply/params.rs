//! The options of an apply request.

use crate::api::{PatchParams, ValidationDirective};

/// Options of [`Api::apply`](crate::Api::apply) (client-go's `ApplyOptions`): server-side
/// apply always names its field manager, so there is no default.
///
/// ```
/// use informer_client::apply::ApplyParams;
///
/// let params = ApplyParams::new("foo-controller").force();
/// assert_eq!(params.field_manager, "foo-controller");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApplyParams {
    /// The manager the applied fields are recorded under (`fieldManager`).
    pub field_manager: String,
    /// Take ownership of fields other managers hold instead of failing with a conflict
    /// (`force=true`): what a controller owning its fields does.
    pub force: bool,
    /// Apply and answer without storing anything (`dryRun=All`).
    pub dry_run: bool,
    /// How unknown or duplicate fields are handled (`fieldValidation`).
    pub field_validation: Option<ValidationDirective>,
}

impl ApplyParams {
    /// Apply as `field_manager`, failing on conflicts.
    pub fn new(field_manager: impl Into<String>) -> Self {
        Self {
            field_manager: field_manager.into(),
            force: false,
            dry_run: false,
            field_validation: None,
        }
    }

    /// Take over fields other managers own (`force=true`).
    #[must_use]
    pub fn force(mut self) -> Self {
        self.force = true;
        self
    }

    /// Store nothing (`dryRun=All`).
    #[must_use]
    pub fn dry_run(mut self) -> Self {
        self.dry_run = true;
        self
    }

    /// With a `fieldValidation` directive.
    #[must_use]
    pub fn validation(mut self, directive: ValidationDirective) -> Self {
        self.field_validation = Some(directive);
        self
    }

    /// The patch options an apply request sends.
    pub(crate) fn patch_params(&self) -> PatchParams {
        PatchParams {
            dry_run: self.dry_run,
            field_manager: Some(self.field_manager.clone()),
            force: self.force,
            field_validation: self.field_validation,
        }
    }
}
