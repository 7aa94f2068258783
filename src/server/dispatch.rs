//! Typed dispatch: each request and notification is extracted as its `lsp_types` method's
//! params (`lsp-server`'s `extract`) and handed to its handler. A request answers with its
//! method's result, -32602 when its params do not read, and -32601 when the server does not
//! support it; a notification whose params do not read, or that the server does not handle,
//! is ignored.

use lsp_server::{ErrorCode, ExtractError, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidChangeWatchedFiles, DidCloseTextDocument, DidOpenTextDocument,
    DidSaveTextDocument,
};
use lsp_types::request::{CodeActionRequest, Completion, HoverRequest};

use super::handlers;
use super::state::Server;

/// Answers a request (after `initialize`, before `shutdown`).
pub fn request(server: &mut Server, request: Request) {
    let id = request.id.clone();
    let response = answer::<HoverRequest>(server, request, handlers::hover::handle)
        .or_else(|r| answer::<Completion>(server, r, handlers::completion::handle))
        .or_else(|r| answer::<CodeActionRequest>(server, r, handlers::code_action::handle))
        .unwrap_or_else(|r| {
            Response::new_err(
                id,
                ErrorCode::MethodNotFound as i32,
                format!("unsupported request `{}`", r.method),
            )
        });
    let _ = server.connection.sender.send(Message::Response(response));
}

/// Handles a notification; `true` when files changed that the collection rules read, so that
/// the workspace must be scanned again.
pub fn notification(server: &mut Server, notification: Notification) -> bool {
    on::<DidOpenTextDocument>(server, notification, handlers::did_open::handle)
        .or_else(|n| on::<DidChangeTextDocument>(server, n, handlers::did_change::handle))
        .or_else(|n| on::<DidSaveTextDocument>(server, n, handlers::did_save::handle))
        .or_else(|n| on::<DidCloseTextDocument>(server, n, handlers::did_close::handle))
        .or_else(|n| {
            on::<DidChangeWatchedFiles>(server, n, handlers::did_change_watched_files::handle)
        })
        .unwrap_or(false)
}

/// The response of `handle` to `request` if it is of method `R`, else the request back.
fn answer<R: lsp_types::request::Request>(
    server: &mut Server,
    request: Request,
    handle: impl FnOnce(&mut Server, R::Params) -> R::Result,
) -> Result<Response, Request> {
    let id = request.id.clone();
    match request.extract::<R::Params>(R::METHOD) {
        Ok((id, params)) => {
            let result = serde_json::to_value(handle(server, params)).unwrap_or_default();
            Ok(Response::new_ok(id, result))
        }
        Err(ExtractError::MethodMismatch(request)) => Err(request),
        Err(ExtractError::JsonError { error, .. }) => Ok(Response::new_err(
            id,
            ErrorCode::InvalidParams as i32,
            error.to_string(),
        )),
    }
}

/// What `handle` says of `notification` if it is of method `N`, else the notification back.
fn on<N: lsp_types::notification::Notification>(
    server: &mut Server,
    notification: Notification,
    handle: impl FnOnce(&mut Server, N::Params) -> bool,
) -> Result<bool, Notification> {
    match notification.extract::<N::Params>(N::METHOD) {
        Ok(params) => Ok(handle(server, params)),
        Err(ExtractError::MethodMismatch(notification)) => Err(notification),
        Err(ExtractError::JsonError { .. }) => Ok(false),
    }
}
