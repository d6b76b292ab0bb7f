import { css } from 'lit';

/** Theming: override the custom properties on the host, or style the `part`s. */
export const styles = css`
  /* The host page's inherited styles stop here (text-align, line-height, fonts, letter and word
     spacing, text-transform...): all: initial resets every inherited property, custom properties
     (the theming hooks below) excepted; then the widget sets its own. */
  :host {
    all: initial;
    --service-font: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
    --service-bg: #ffffff;
    --service-fg: #14171a;
    --service-muted: #5b6470;
    --service-accent: #2457d6;
    --service-accent-fg: #ffffff;
    --service-danger: #b3261e;
    --service-radius: 12px;
    --service-border: #d5dae1;
    --service-focus: #f2a900;
    display: block;
    max-width: 560px;
    font-family: var(--service-font);
    font-size: 16px;
    line-height: 1.5;
    text-align: start;
    color: var(--service-fg);
    box-sizing: border-box;
  }
  :host([hidden]) {
    display: none;
  }
  *,
  *::before,
  *::after {
    box-sizing: inherit;
  }
  .panel {
    background: var(--service-bg);
    border: 1px solid var(--service-border);
    border-radius: var(--service-radius);
    padding: 20px;
    display: grid;
    gap: 14px;
  }
  h2 {
    margin: 0;
    font-size: 1.3rem;
    line-height: 1.3;
  }
  h2:focus {
    outline: none;
  }
  p {
    margin: 0;
    line-height: 1.5;
  }
  .muted,
  .step-count {
    color: var(--service-muted);
    font-size: 0.9rem;
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 10px;
    justify-content: flex-end;
  }
  button {
    font: inherit;
    min-height: 44px;
    padding: 0 18px;
    border-radius: calc(var(--service-radius) - 4px);
    border: 1px solid var(--service-border);
    background: var(--service-bg);
    color: var(--service-fg);
    cursor: pointer;
  }
  button.primary {
    background: var(--service-accent);
    border-color: var(--service-accent);
    color: var(--service-accent-fg);
    font-weight: 600;
  }
  button:disabled {
    opacity: 0.5;
    cursor: default;
  }
  button:focus-visible {
    outline: 3px solid var(--service-focus);
    outline-offset: 2px;
  }
  .stage {
    position: relative;
    background: #000;
    border-radius: calc(var(--service-radius) - 4px);
    overflow: hidden;
    aspect-ratio: 4 / 3;
  }
  video,
  .still {
    width: 100%;
    height: 100%;
    object-fit: cover;
    display: block;
  }
  video.mirrored {
    transform: scaleX(-1);
  }
  .frame {
    position: absolute;
    inset: 12% 8%;
    border: 3px solid rgba(255, 255, 255, 0.9);
    border-radius: 10px;
    box-shadow: 0 0 0 100vmax rgba(0, 0, 0, 0.35);
    pointer-events: none;
  }
  .frame.oval {
    inset: 8% 24%;
    border-radius: 50%;
  }
  .status {
    position: absolute;
    inset: auto 0 0 0;
    padding: 8px;
    color: #fff;
    background: rgba(0, 0, 0, 0.5);
    text-align: center;
    font-size: 0.9rem;
  }
  .frame.reached {
    border-color: #3ddc84;
    border-width: 6px;
  }
  .guide {
    position: absolute;
    inset: auto 0 0 0;
    padding: 10px 12px;
    background: rgba(0, 0, 0, 0.62);
    color: #fff;
    text-align: center;
    display: grid;
    gap: 4px;
  }
  .guide .instruction {
    font-weight: 700;
    font-size: 1.1rem;
  }
  .guide .feedback {
    font-size: 0.95rem;
  }
  .cue {
    position: absolute;
    bottom: calc(100% + 8px);
    left: 50%;
    transform: translateX(-50%);
    font-size: 3rem;
    line-height: 1;
    color: #fff;
    text-shadow: 0 0 6px #000;
  }
  .cue-turn_left {
    left: 18%;
  }
  .cue-turn_right {
    left: 82%;
  }
  .guidance {
    position: absolute;
    inset: auto 0 0 0;
    margin: 0;
    padding: 10px 12px;
    background: rgba(0, 0, 0, 0.62);
    color: #fff;
    text-align: center;
    font-weight: 700;
  }
  .guidance[data-advice='ready'] {
    background: rgba(14, 110, 52, 0.85);
  }
  .guidance[hidden] {
    display: none;
  }
  .handoff {
    display: grid;
    justify-items: center;
    gap: 10px;
  }
  .qr {
    width: min(240px, 70%);
    height: auto;
    border: 1px solid var(--service-border);
    border-radius: 8px;
  }
  .link {
    display: grid;
    gap: 4px;
    width: 100%;
    font-size: 0.9rem;
    color: var(--service-muted);
  }
  .link input {
    font: inherit;
    color: var(--service-fg);
    background: var(--service-bg);
    border: 1px solid var(--service-border);
    border-radius: 8px;
    padding: 8px 10px;
    width: 100%;
    direction: ltr;
  }
  .link input:focus-visible {
    outline: 3px solid var(--service-focus);
    outline-offset: 2px;
  }
  .note {
    font-size: 0.9rem;
    color: var(--service-muted);
  }
  .status-line {
    font-weight: 600;
  }
  .review {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(150px, 1fr));
    gap: 12px;
  }
  figure {
    margin: 0;
    display: grid;
    gap: 6px;
  }
  figure img {
    width: 100%;
    aspect-ratio: 4 / 3;
    object-fit: cover;
    border-radius: 8px;
    border: 1px solid var(--service-border);
  }
  figcaption {
    font-weight: 600;
  }
  .hint {
    color: var(--service-danger);
    font-size: 0.9rem;
  }
  progress {
    width: 100%;
    height: 12px;
    accent-color: var(--service-accent);
  }
  .error-text {
    color: var(--service-danger);
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
  }
  @media (max-width: 420px) {
    .panel {
      padding: 14px;
      border-radius: 0;
      border-left: 0;
      border-right: 0;
    }
    .actions {
      flex-direction: column-reverse;
    }
    .actions button {
      width: 100%;
    }
    .stage.portrait {
      aspect-ratio: 3 / 4;
    }
  }
  @media (prefers-reduced-motion: no-preference) {
    .panel {
      transition: opacity 150ms ease;
    }
    .cue {
      animation: nudge 1s ease-in-out infinite alternate;
    }
    .cue-turn_left {
      --nudge: translate(-70%, 0);
    }
    .cue-turn_right {
      --nudge: translate(-30%, 0);
    }
    .cue-look_up {
      --nudge: translate(-50%, -8px);
    }
    .cue-look_down {
      --nudge: translate(-50%, 8px);
    }
  }
  @keyframes nudge {
    to {
      transform: var(--nudge, translateX(-50%));
    }
  }
`;
