// overlay.vert - heads-up display quads in drawable pixels, origin top-left.

layout(location = 0) in vec4 a_pos_uv; // x, y in pixels; u, v in the atlas (u < 0: solid)
layout(location = 1) in vec4 a_color;

uniform mat4 u_proj;

out vec2 v_uv;
out vec4 v_color;

void main()
{
    v_uv = a_pos_uv.zw;
    v_color = a_color;
    gl_Position = u_proj * vec4(a_pos_uv.xy, 0.0, 1.0);
}
