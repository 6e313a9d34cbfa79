//! What a refusal leads to: nothing new when the refused token is already replaced, a new
//! token on 401, and on a 403 `insufficient_scope` that asks for more scopes.

use http::StatusCode;
use toolport_http_client::Refusal;

use super::Inner;
use super::present::bearer;
use crate::oauth::renew::bearer_challenge;
use crate::oauth::scopes;
use crate::{AuthorizationError, TokenSet};

impl Inner {
    /// Handles `refusal` and says whether the request is worth sending again. Renewals run
    /// one at a time; a refusal of a token already replaced (by another renewal, or another
    /// authorizer sharing the store) is answered `true` at once.
    pub(super) async fn renew(&self, refusal: Refusal<'_>) -> Result<bool, AuthorizationError> {
        let mut session = self.session.lock().await;
        let current = self.tokens.reload().await?;
        if let Some(tokens) = &current
            && bearer(tokens).ok().as_ref() != refusal.sent
        {
            tracing::debug!("the refused request carried an older token; sending it again");
            return Ok(true);
        }
        let challenge = bearer_challenge(refusal.headers);
        let worth_a_token = match refusal.status {
            StatusCode::UNAUTHORIZED => true,
            StatusCode::FORBIDDEN => challenge.as_ref().is_some_and(|challenge| {
                let mut asked = session.asked.clone();
                asked.extend(current.iter().flat_map(TokenSet::scopes).cloned());
                challenge.is_insufficient_scope() && scopes::asks_more(challenge, &asked)
            }),
            _ => false,
        };
        if !worth_a_token {
            return Ok(false);
        }
        self.obtain(&mut session, challenge.as_ref()).await?;
        Ok(true)
    }
}
