//! The provider message shapes of a hand-written loop: each API's response read, its calls run
//! under the right tools, and their answers written as the API takes them.

mod anthropic;
mod calls;
mod declarations;
mod fakes;
mod gemini;
mod openai_chat;
mod openai_responses;
