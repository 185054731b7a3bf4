/**
 * Event handlers and the batch event processor that runs one handler on its own thread.
 */
package dev.slipstream.processor;
