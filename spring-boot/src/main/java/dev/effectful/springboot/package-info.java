/**
 * Optional Spring Boot 3 and 4 auto-configuration for the Effectful agent: the health indicator
 * {@code effectful}, the read-only actuator endpoint {@code effectful} and the agent's status gauges. It
 * holds no agent code: everything is read through {@link dev.effectful.AgentStatus}, so an application
 * started without the agent runs as before, its health saying {@code UNKNOWN} with {@code agent: not loaded}.
 */
package dev.effectful.springboot;
