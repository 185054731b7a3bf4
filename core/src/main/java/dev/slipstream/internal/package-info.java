/** The module's own plumbing, used by every other package and not exported. */
package dev.slipstream.internal;
